import { describe, expect, it } from 'vitest';
import type { VaultEntry } from '../../../common/api/vault.ts';
import { bytesSource, listZipEntries, readZipEntry } from '../../../common/vault/zipReader.ts';
import { joinChunks } from '../../../common/vault/zipWriter.ts';
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
