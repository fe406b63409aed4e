import { describe, expect, it } from 'vitest';
import { joinChunks, ZipWriter } from '../../../common/vault/zipWriter.ts';
import { fileSource, filesOf } from './vaultSources.ts';

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
    expect(new TextDecoder().decode(await files[1]!.read())).toBe('B\n');
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
    expect(new TextDecoder().decode(await files[0]!.read())).toBe('x');
  });
});
