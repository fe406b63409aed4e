import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { parseMarkdown } from '../../../../common/editor/markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../../../common/editor/markdown/serializeMarkdown.ts';
import { bytesSource, listZipEntries, readZipEntry } from '../../../../common/vault/zipReader.ts';
import { joinChunks } from '../../../../common/vault/zipWriter.ts';
import {
  dispositionName,
  exportWithImages,
  type FetchedImage,
  imageFileName,
  uniqueName,
} from './exportWithImages.ts';
import { mapImageSources } from './imageSources.ts';

const A = '/files/00000000-0000-4000-8000-000000000001';
const B = '/files/00000000-0000-4000-8000-000000000002';
const C = '/files/00000000-0000-4000-8000-000000000003';

async function unzip(chunks: Uint8Array[]): Promise<Record<string, Uint8Array>> {
  const source = bytesSource(joinChunks(chunks));
  const files: Record<string, Uint8Array> = {};
  for (const entry of await listZipEntries(source, { maxEntries: 100 })) {
    files[entry.name] = await readZipEntry(source, entry, 1024 * 1024);
  }
  return files;
}

function fakeImages(images: Record<string, FetchedImage>) {
  const calls: string[] = [];
  const fetchImage = (src: string) => {
    calls.push(src);
    const image = images[src];
    return image ? Promise.resolve(image) : Promise.reject(new Error('not found'));
  };
  return { calls, fetchImage };
}

describe('export with images', () => {
  it('zips the Markdown beside each uploaded image once, linked relatively', async () => {
    const doc = parseMarkdown(
      `# Trip\n\n![first](${A})\n\n![again](${A}) ![other](${B})\n\n![web](https://example.com/x.png)\n`,
    );
    const { calls, fetchImage } = fakeImages({
      [A]: { bytes: new Uint8Array([1, 2]), type: 'image/png', name: 'shot.png' },
      [B]: { bytes: new Uint8Array([3]), type: 'image/jpeg', name: 'Shot.jpeg' },
    });
    const result = await exportWithImages(doc, 'Trip: day 1', {
      fetchImage,
      serialize: serializeMarkdown,
      origin: 'https://inkwell.test',
    });
    expect(calls).toEqual([A, B]);
    expect(result).toMatchObject({ fileName: 'Trip_ day 1.zip', images: 2, missing: 0 });
    const files = await unzip(result.chunks);
    expect(Object.keys(files).sort()).toEqual([
      'Trip_ day 1.md',
      'images/Shot.jpg',
      'images/shot.png',
    ]);
    expect(files['images/shot.png']).toEqual(new Uint8Array([1, 2]));
    const markdown = new TextDecoder().decode(files['Trip_ day 1.md']);
    expect(markdown).toContain('![first](images/shot.png)');
    expect(markdown).toContain('![again](images/shot.png) ![other](images/Shot.jpg)');
    expect(markdown).toContain('![web](https://example.com/x.png)');
  });

  it('writes the images embeds show at their targets beside the note, the embeds as written', async () => {
    const schema = inkwellSchema();
    const embed = (target: string, src: string) =>
      schema.node('wikilink', { target, embed: true, src });
    const doc = schema.node('doc', null, [
      schema.node('paragraph', null, [
        embed('diagram.png', A),
        embed('sub/chart.png', B),
        embed('../../escape.png', B),
        embed('Diagram.PNG', A),
      ]),
    ]);
    const { fetchImage } = fakeImages({
      [A]: { bytes: new Uint8Array([1]), type: 'image/png', name: 'a.png' },
      [B]: { bytes: new Uint8Array([2]), type: 'image/png', name: 'b.png' },
    });
    const result = await exportWithImages(doc, 'Plan', {
      fetchImage,
      serialize: serializeMarkdown,
      origin: 'https://inkwell.test',
    });
    const files = await unzip(result.chunks);
    expect(Object.keys(files).sort()).toEqual(['Plan.md', 'diagram.png', 'sub/chart.png']);
    expect(new TextDecoder().decode(files['Plan.md'])).toBe(
      '![[diagram.png]]![[sub/chart.png]]![[../../escape.png]]![[Diagram.PNG]]\n',
    );
  });

  it('links an image that cannot be fetched by absolute address and still exports', async () => {
    const doc = parseMarkdown(`![gone](${C})\n`);
    const result = await exportWithImages(doc, '', {
      fetchImage: fakeImages({}).fetchImage,
      serialize: serializeMarkdown,
      origin: 'https://inkwell.test',
    });
    expect(result).toMatchObject({ fileName: 'Untitled.zip', images: 0, missing: 1 });
    const files = await unzip(result.chunks);
    expect(Object.keys(files)).toEqual(['Untitled.md']);
    expect(new TextDecoder().decode(files['Untitled.md'])).toContain(
      `![gone](https://inkwell.test${C})`,
    );
  });
});

describe('image addresses in a document its schema would not build', () => {
  it('are mapped all the same, as in the unchunked document that export reads', () => {
    const parsed = parseMarkdown(`Before ![a](${A}) after\n`);
    const paragraph = parsed.firstChild!;
    // Inline content straight under doc, as blocks straight under doc are for the chunked schema.
    const loose = parsed.type.create(parsed.attrs, paragraph.content);
    const mapped = mapImageSources(loose, (src) => (src === A ? 'images/a.png' : null));
    const found: unknown[] = [];
    mapped.descendants((node) => {
      if (node.attrs.src !== undefined) found.push(node.attrs.src);
    });
    expect(found).toEqual(['images/a.png']);
    expect(mapped.textContent).toBe(loose.textContent);
  });
});

describe('image file names in the zip', () => {
  it('keep the uploaded name with the extension of the real type', () => {
    expect(imageFileName('holiday photo.JPEG', 'image/jpeg')).toBe('holiday-photo.jpg');
    expect(imageFileName('diagram.png', 'image/webp')).toBe('diagram.webp');
  });

  it('cannot climb out of images/ or hide, and are never empty', () => {
    expect(imageFileName('../../etc/passwd', 'image/png')).toBe('_.._etc_passwd.png');
    expect(imageFileName('.hidden.png', 'image/png')).toBe('hidden.png');
    expect(imageFileName('', 'image/gif')).toBe('image.gif');
    expect(imageFileName('(x)[y]', 'image/png')).toBe('x-y.png');
  });

  it('are told apart without regard to case', () => {
    const taken = new Set<string>();
    expect(uniqueName('a.png', taken)).toBe('a.png');
    expect(uniqueName('A.png', taken)).toBe('A-2.png');
    expect(uniqueName('a.png', taken)).toBe('a-3.png');
  });

  it('are read from Content-Disposition, the UTF-8 name first', () => {
    expect(dispositionName(`inline; filename="caf_.png"; filename*=UTF-8''caf%C3%A9.png`)).toBe(
      'café.png',
    );
    expect(dispositionName('inline; filename="a.png"')).toBe('a.png');
    expect(dispositionName(null)).toBe('');
  });
});
