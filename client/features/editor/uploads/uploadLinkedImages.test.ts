import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../../../common/editor/markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../../../common/editor/markdown/serializeMarkdown.ts';
import { bytesSource, listZipEntries, readZipEntry } from '../../../../common/vault/zipReader.ts';
import { joinChunks } from '../../../../common/vault/zipWriter.ts';
import { fakeUpload, srcsOf } from './test/fakeUpload.ts';
import { exportWithImages } from './exportWithImages.ts';
import { failedLinkedImagesMessage, uploadLinkedImages } from './uploadLinkedImages.ts';

const png = (name: string) => new File([new Uint8Array([0x89, 0x50])], name, { type: 'image/png' });

describe('a Markdown file dropped or picked with its images', () => {
  it('uploads the images it links relatively or embeds, each once, and links them', async () => {
    const doc = parseMarkdown(
      '![a](images/a.png) ![again](./a.png) ![b](b%20c.JPG)\n\n![[diagram.png]] ![web](https://example.com/a.png)\n',
    );
    const { names, upload } = fakeUpload();
    const result = await uploadLinkedImages(
      doc,
      [png('a.png'), png('b c.jpg'), png('diagram.png'), png('unused.png'), png('notes.txt')],
      upload,
    );
    expect(names).toEqual(['a.png', 'b c.jpg', 'diagram.png']);
    expect(srcsOf(result.doc)).toEqual([
      '/files/00000000-0000-4000-8000-000000000001',
      '/files/00000000-0000-4000-8000-000000000001',
      '/files/00000000-0000-4000-8000-000000000002',
      '/files/00000000-0000-4000-8000-000000000003',
      'https://example.com/a.png',
    ]);
    expect(result).toMatchObject({ uploaded: 3, failed: 0 });
    // The embed is written back as it was; only relative image links point at the upload.
    expect(serializeMarkdown(result.doc)).toContain('![[diagram.png]]');
  });

  it('keeps the link of an image the server refuses, and says why', async () => {
    const doc = parseMarkdown('![a](a.png) ![b](b.png)\n');
    const { upload } = fakeUpload((name) => name === 'b.png');
    const result = await uploadLinkedImages(doc, [png('a.png'), png('b.png')], upload);
    expect(srcsOf(result.doc)).toEqual(['/files/00000000-0000-4000-8000-000000000001', 'b.png']);
    expect(result).toMatchObject({ uploaded: 1, failed: 1 });
    expect(failedLinkedImagesMessage(result.failed, result.reason)).toBe(
      'One image that came with the file could not be uploaded; the links stay as written: This file is not an image Inkwell can show.',
    );
  });

  it('finds a file for a relative link by its name, never for an absolute or web address', async () => {
    const doc = parseMarkdown(
      '![x](/etc/a.png) ![y](https://example.com/a.png) ![z](../../a.png)\n',
    );
    const { names, upload } = fakeUpload();
    const result = await uploadLinkedImages(doc, [png('a.png')], upload);
    // A relative link that climbs is still a relative link: a drop has no folders to climb.
    expect(srcsOf(result.doc)).toEqual([
      '/etc/a.png',
      'https://example.com/a.png',
      '/files/00000000-0000-4000-8000-000000000001',
    ]);
    expect(names).toEqual(['a.png']);
  });

  it('gives back the document "Export with images" zipped, with its images, dropped as files', async () => {
    const A = '/files/00000000-0000-4000-8000-00000000000a';
    const original = parseMarkdown(`# Trip\n\n![shot](${A})\n`);
    const zip = await exportWithImages(original, 'Trip', {
      fetchImage: () =>
        Promise.resolve({ bytes: new Uint8Array([1, 2, 3]), type: 'image/png', name: 'shot.png' }),
      serialize: serializeMarkdown,
      origin: 'https://inkwell.test',
    });
    expect(zip.missing).toBe(0);
    // The zip's files as a person drops them after unpacking it: the note and images/shot.png.
    const source = bytesSource(joinChunks(zip.chunks));
    const files: File[] = [];
    for (const entry of await listZipEntries(source, { maxEntries: 10 })) {
      const bytes = await readZipEntry(source, entry, 1024);
      files.push(new File([bytes as Uint8Array<ArrayBuffer>], entry.name.split('/').pop()!));
    }
    const note = files.find((file) => file.name === 'Trip.md')!;
    const doc = parseMarkdown(await note.text());
    const { names, upload } = fakeUpload();
    const result = await uploadLinkedImages(doc, files, upload);
    expect(names).toEqual(['shot.png']);
    expect(srcsOf(result.doc)).toEqual(['/files/00000000-0000-4000-8000-000000000001']);
    expect(serializeMarkdown(result.doc)).toBe(
      '# Trip\n\n![shot](/files/00000000-0000-4000-8000-000000000001)\n',
    );
  });
});
