import { describe, expect, it } from 'vitest';
import type { VaultEntry } from '../../../common/api/vault.ts';
import { bytesSource, listZipEntries, readZipEntry } from '../../../common/vault/zipReader.ts';
import { joinChunks } from '../../../common/vault/zipWriter.ts';
import { parseMarkdown } from '../../../common/editor/markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../../common/editor/markdown/serializeMarkdown.ts';
import { mapImageSources } from '../editor/uploads/imageSources.ts';
import { relativeLink } from './exportImages.ts';
import { exportVault, type ExportDeps } from './exportVault.ts';

const entry = (id: string, title: string, folder: string): VaultEntry => ({
  id,
  title,
  folder,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-02-01T00:00:00.000Z',
});

function deps(documents: VaultEntry[], markdown: Record<string, string>, perAnswer = 1000) {
  const asked: number[] = [];
  const result: ExportDeps = {
    list: (folder) =>
      Promise.resolve(
        documents.filter(
          (d) => d.folder === folder || d.folder.startsWith(`${folder}/`) || !folder,
        ),
      ),
    markdown: (ids) => {
      asked.push(ids.length);
      // Like the server: at most `perAnswer` files an answer, the rest left for later.
      const known = ids.filter((id) => id in markdown);
      return Promise.resolve({
        files: known.slice(0, perAnswer).map((id) => ({ id, markdown: markdown[id]! })),
        later: known.slice(perAnswer),
      });
    },
    yieldToBrowser: () => Promise.resolve(),
    onProgress: () => undefined,
  };
  return { deps: result, asked };
}

async function unzip(chunks: Uint8Array[]) {
  const source = bytesSource(joinChunks(chunks));
  const files: Record<string, string> = {};
  for (const e of await listZipEntries(source, { maxEntries: 100_000 })) {
    files[e.name] = new TextDecoder().decode(await readZipEntry(source, e, 1e7));
  }
  return files;
}

describe('exportVault with uploaded images', () => {
  const A = '/files/00000000-0000-4000-8000-00000000000a';
  const GONE = '/files/00000000-0000-4000-8000-00000000000b';

  it('writes each image once beside the first note showing it and links every note relatively', async () => {
    const { deps: d } = deps(
      [entry('1', 'Day one', 'Album'), entry('2', 'Later', 'Album/More'), entry('3', 'Plain', '')],
      {
        '1': `![dot](${A})\n\n![web](https://example.com/x.png)\n`,
        '2': `![again](${A}) ![gone](${GONE})\n`,
        '3': 'No images, and /files/ named in text.\n',
      },
    );
    const fetched: string[] = [];
    d.images = {
      fetchImage: (src) => {
        fetched.push(src);
        return src === A
          ? Promise.resolve({ bytes: new Uint8Array([7]), type: 'image/png', name: 'dot.png' })
          : Promise.reject(new Error('not found'));
      },
      relink: (markdown, replace) =>
        serializeMarkdown(mapImageSources(parseMarkdown(markdown), replace)),
    };
    const result = await exportVault('', d);
    expect(fetched).toEqual([A, GONE]);
    expect(result.missingImages).toBe(1);
    const files = await unzip(result.chunks);
    expect(Object.keys(files).sort()).toEqual([
      'Album/Day one.md',
      'Album/More/Later.md',
      'Album/images/dot.png',
      'Plain.md',
    ]);
    expect(files['Album/Day one.md']).toBe(
      '![dot](images/dot.png)\n\n![web](https://example.com/x.png)\n',
    );
    expect(files['Album/More/Later.md']).toBe(`![again](../images/dot.png) ![gone](${GONE})\n`);
    expect(files['Plain.md']).toBe('No images, and /files/ named in text.\n');
  });

  it('writes the files embeds show where Obsidian finds them, the notes kept as written', async () => {
    const B = '/files/00000000-0000-4000-8000-00000000000c';
    const notes = {
      '1': '![[diagram.png]] ![[sub/chart.png|300]]\n',
      '2': '![[diagram.png]] ![[../../escape.png]]\n',
    };
    const { deps: d } = deps(
      [entry('1', 'Plan', 'Vault/Notes'), entry('2', 'Other', 'Vault')],
      notes,
    );
    const markdown = d.markdown;
    const embeds: Record<string, { target: string; src: string }[]> = {
      '1': [
        { target: 'diagram.png', src: A },
        { target: 'sub/chart.png', src: B },
      ],
      '2': [
        { target: 'diagram.png', src: A },
        { target: '../../escape.png', src: B },
      ],
    };
    d.markdown = async (ids) => {
      const answer = await markdown(ids);
      return { ...answer, files: answer.files.map((f) => ({ ...f, embeds: embeds[f.id] })) };
    };
    const fetched: string[] = [];
    d.images = {
      fetchImage: (src) => {
        fetched.push(src);
        return Promise.resolve({
          bytes: new Uint8Array([src === A ? 1 : 2]),
          type: 'image/png',
          name: 'x.png',
        });
      },
      relink: (text) => text,
    };
    const files = await unzip((await exportVault('', d)).chunks);
    expect(Object.keys(files).sort()).toEqual([
      'Vault/Notes/Plan.md',
      'Vault/Other.md',
      'Vault/diagram.png',
      'Vault/sub/chart.png',
    ]);
    expect(files['Vault/Notes/Plan.md']).toBe(notes['1']);
    expect(files['Vault/Other.md']).toBe(notes['2']);
    expect(fetched).toEqual([A, B]);
  });

  it('links across folders, escaping what a link cannot hold', () => {
    expect(relativeLink('A/B/n.md', 'A/images/x.png')).toBe('../images/x.png');
    expect(relativeLink('n.md', 'My notes/images/x.png')).toBe('My%20notes/images/x.png');
    expect(relativeLink('A/n.md', 'A/images/x.png')).toBe('images/x.png');
  });
});

describe('exportVault', () => {
  it('writes every document as folder/Title.md with its Markdown', async () => {
    const { deps: d } = deps(
      [
        entry('1', 'Plan', 'Vault/Projects'),
        entry('2', 'Inbox', ''),
        entry('3', 'Plan', 'Vault/Projects'),
      ],
      { '1': '# Plan\n', '2': 'inbox\n', '3': 'other plan\n' },
    );
    const result = await exportVault('', d);
    expect(result.fileName).toBe('Inkwell.zip');
    expect(result.count).toBe(3);
    expect(await unzip(result.chunks)).toEqual({
      'Inbox.md': 'inbox\n',
      'Vault/Projects/Plan.md': '# Plan\n',
      'Vault/Projects/Plan (2).md': 'other plan\n',
    });
  });

  it('exports one folder under its name, and asks for Markdown in batches of 100', async () => {
    const documents = Array.from({ length: 250 }, (_, i) => entry(`${i}`, `n${i}`, 'A/B'));
    const markdown = Object.fromEntries(documents.map((d) => [d.id, `${d.title}\n`]));
    const { deps: d, asked } = deps([...documents, entry('x', 'Outside', 'A')], markdown);
    const result = await exportVault('A/B', d);
    expect(result.fileName).toBe('B.zip');
    expect(asked).toEqual([100, 100, 50]);
    const files = await unzip(result.chunks);
    expect(Object.keys(files)).toHaveLength(250);
    expect(files['B/n7.md']).toBe('n7\n');
  });

  it('asks again for what the server left for later, in order, and counts progress by it', async () => {
    const documents = Array.from({ length: 30 }, (_, i) => entry(`${i}`, `n${i}`, ''));
    const markdown = Object.fromEntries(documents.map((d) => [d.id, `${d.title}\n`]));
    const { deps: d, asked } = deps(documents, markdown, 7);
    const progress: number[] = [];
    d.onProgress = (done) => progress.push(done);
    const result = await exportVault('', d);
    expect(result.count).toBe(30);
    expect(Object.keys(await unzip(result.chunks))).toHaveLength(30);
    expect(asked).toEqual([30, 23, 16, 9, 2]);
    expect(progress).toEqual([0, 7, 14, 21, 28, 30]);
  });
});
