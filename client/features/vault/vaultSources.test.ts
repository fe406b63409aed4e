import { describe, expect, it } from 'vitest';
import { joinChunks, ZipWriter } from '../../../common/vault/zipWriter.ts';
import { fileSource, filesOf } from './vaultSources.ts';

type Tree = { [name: string]: string | Tree };

/** Dropped folders as the entries API gives them, listing at most `page` children per call. */
function entryOf(name: string, node: string | Tree, page = 2): FileSystemEntry {
  if (typeof node === 'string') {
    const entry = {
      name,
      isFile: true,
      isDirectory: false,
      file: (done: (file: File) => void) => done(new File([node], name)),
    };
    return entry as unknown as FileSystemEntry;
  }
  const children = Object.entries(node).map(([child, value]) => entryOf(child, value, page));
  const entry = {
    name,
    isFile: false,
    isDirectory: true,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (done: (entries: FileSystemEntry[]) => void) => {
          done(children.slice(at, at + page));
          at += page;
        },
      };
    },
  };
  return entry as unknown as FileSystemEntry;
}

function zipOf(files: Record<string, string>): Blob {
  const zip = new ZipWriter();
  for (const [path, text] of Object.entries(files)) zip.add(path, text);
  return new Blob([joinChunks(zip.finish())], { type: 'application/zip' });
}

describe('vault sources', () => {
  it('lists the files of a zip without its folder entries, each read on demand', async () => {
    const zip = zipOf({ 'Vault/a.md': 'A\n', 'Vault/sub/b.md': 'B\n' });
    const files = await filesOf({ kind: 'zip', file: new File([zip], 'Vault.zip') });
    expect(files.map((f) => [f.path, f.size])).toEqual([
      ['Vault/a.md', 2],
      ['Vault/sub/b.md', 2],
    ]);
    expect(new TextDecoder().decode(await files[1]!.read(1024))).toBe('B\n');
  });

  it('reads a File in slices, as a vault too large to hold in memory is read', async () => {
    const source = fileSource(new Blob(['0123456789']));
    expect(source.size).toBe(10);
    expect(new TextDecoder().decode(await source.read(3, 4))).toBe('3456');
    expect(await source.read(8, 10)).toHaveLength(2);
  });

  it('refuses a file that is not a zip with a sentence for people', async () => {
    const file = new File(['# not a zip'], 'notes.zip');
    await expect(filesOf({ kind: 'zip', file })).rejects.toThrow(
      'This file is not a .zip archive.',
    );
  });

  it('takes the files of a folder pick under their relative paths', async () => {
    const file = new File(['x'], 'a.md');
    Object.defineProperty(file, 'webkitRelativePath', { value: 'Vault/sub/a.md' });
    const files = await filesOf({ kind: 'files', files: [file] });
    expect(files[0]?.path).toBe('Vault/sub/a.md');
    expect(new TextDecoder().decode(await files[0]!.read(1024))).toBe('x');
  });

  it('walks dropped folders page by page, counting a dot-folder once without walking it', async () => {
    const vault = entryOf('Vault', {
      'a.md': 'A',
      'b.md': 'B',
      'c.md': 'C',
      sub: { 'd.md': 'D', deeper: { 'e.md': 'E' } },
      '.obsidian': { 'app.json': '{}', 'workspace.json': '{}' },
    });
    const files = await filesOf({ kind: 'entries', entries: [vault] });
    expect(files.map((f) => f.path)).toEqual([
      'Vault/a.md',
      'Vault/b.md',
      'Vault/c.md',
      'Vault/sub/d.md',
      'Vault/sub/deeper/e.md',
      'Vault/.obsidian',
    ]);
    expect(new TextDecoder().decode(await files[4]!.read(1024))).toBe('E');
  });

  it('stops walking a dropped folder past the entry limit', async () => {
    const many: Tree = {};
    for (let i = 0; i < 10_002; i++) many[`n${i}.md`] = '';
    const drop = entryOf('Huge', many, 1000);
    await expect(filesOf({ kind: 'entries', entries: [drop] })).rejects.toThrow(
      /more than 10,000 files/,
    );
  });
});
