import { describe, expect, it } from 'vitest';
import { classifyVaultPath, displayPath, exportPaths, safeName } from './vaultPaths.ts';

const doc = (id: string, title: string, folder = '', createdAt = '2026-01-01T00:00:00.000Z') => ({
  id,
  title,
  folder,
  createdAt,
});

describe('classifyVaultPath', () => {
  it('reads a note with its folder and its title from the file name', () => {
    expect(classifyVaultPath('Vault/Projects/Plan for 2026.md')).toEqual({
      kind: 'note',
      folder: 'Vault/Projects',
      title: 'Plan for 2026',
    });
    expect(classifyVaultPath('Top.markdown')).toEqual({ kind: 'note', folder: '', title: 'Top' });
    expect(classifyVaultPath('a\\b\\c.md')).toEqual({ kind: 'note', folder: 'a/b', title: 'c' });
    expect(classifyVaultPath('./a//b.md')).toEqual({ kind: 'note', folder: 'a', title: 'b' });
  });

  it('refuses a zip slip and absolute paths instead of cleaning them up', () => {
    for (const path of ['../../x.md', 'a/../../x.md', 'a/..\\..\\x.md', '..']) {
      expect(classifyVaultPath(path)).toMatchObject({ kind: 'refused', reason: /“\.\.”/ });
    }
    for (const path of ['/etc/passwd.md', 'C:/x.md', 'c:\\x.md', '\\\\server\\x.md']) {
      expect(classifyVaultPath(path)).toMatchObject({ kind: 'refused', reason: /absolute/ });
    }
  });

  it('skips dot-folders, dot-files and __MACOSX, and keeps other files as attachments', () => {
    expect(classifyVaultPath('.obsidian/workspace.json')).toEqual({ kind: 'hidden' });
    expect(classifyVaultPath('Vault/.trash/old.md')).toEqual({ kind: 'hidden' });
    expect(classifyVaultPath('.DS_Store')).toEqual({ kind: 'hidden' });
    expect(classifyVaultPath('__MACOSX/Vault/._a.md')).toEqual({ kind: 'hidden' });
    expect(classifyVaultPath('Vault/images/cat.png')).toEqual({ kind: 'attachment' });
    expect(classifyVaultPath('Vault/images/')).toEqual({ kind: 'folder' });
  });

  it('refuses control characters, folders nested too deep and names longer than a title', () => {
    expect(classifyVaultPath('a\u0001/b.md')).toMatchObject({ kind: 'refused', reason: /control/ });
    const deep = `${Array(40).fill('d').join('/')}/note.md`;
    expect(classifyVaultPath(deep)).toMatchObject({ kind: 'refused', reason: /nest at most/ });
    expect(classifyVaultPath(`${'t'.repeat(201)}.md`)).toMatchObject({
      kind: 'refused',
      reason: /200 characters/,
    });
  });

  it('shows control characters in a path as a visible mark', () => {
    expect(displayPath('a\nb.md')).toBe('a\uFFFDb.md');
  });
});

describe('safeName', () => {
  it('leaves an ordinary name as it is, spaces and Unicode included', () => {
    for (const name of [
      'Plan for 2026',
      'Ideen  &  Pläne',
      'Zettel #12 — draft',
      '日本語のノート',
    ]) {
      expect(safeName(name)).toBe(name);
    }
  });

  it('replaces characters file systems refuse and removes leading and trailing dots', () => {
    expect(safeName('a/b\\c:d*e?f"g<h>i|j')).toBe('a_b_c_d_e_f_g_h_i_j');
    expect(safeName('..')).toBe('Untitled');
    expect(safeName('../../etc')).toBe('_.._etc');
    expect(safeName('.hidden')).toBe('hidden');
    expect(safeName('ends with dot.')).toBe('ends with dot');
    expect(safeName('tab\there')).toBe('tab_here');
    expect(safeName('')).toBe('Untitled');
  });

  it('puts a mark before names Windows keeps for devices', () => {
    expect(safeName('CON')).toBe('_CON');
    expect(safeName('lpt1')).toBe('_lpt1');
    expect(safeName('Console')).toBe('Console');
  });

  it('cuts long names to fit 240 bytes of UTF-8 without splitting a character', () => {
    const cut = safeName('日'.repeat(200));
    expect(new TextEncoder().encode(cut).length).toBeLessThanOrEqual(240);
    expect(cut).toBe('日'.repeat(80));
  });
});

describe('exportPaths', () => {
  it('writes folder/Title.md, keeping names that are already safe', () => {
    const paths = exportPaths([doc('1', 'Plan', 'Projects/2026'), doc('2', 'Inbox')]);
    expect(paths.get('1')).toBe('Projects/2026/Plan.md');
    expect(paths.get('2')).toBe('Inbox.md');
  });

  it('tells apart documents that would share a path, the same way whatever the input order', () => {
    const documents = [
      doc('b', 'Note', 'x', '2026-01-02T00:00:00.000Z'),
      doc('a', 'note', 'x', '2026-01-01T00:00:00.000Z'),
      doc('c', 'Note', 'x', '2026-01-01T00:00:00.000Z'),
      doc('d', 'No:te', 'x'),
      doc('e', 'No_te', 'x'),
    ];
    const forward = exportPaths(documents);
    const backward = exportPaths([...documents].reverse());
    expect([...forward.entries()].sort()).toEqual([...backward.entries()].sort());
    expect(forward.get('c')).toBe('x/Note.md');
    expect(forward.get('b')).toBe('x/Note (2).md');
    expect(forward.get('a')).toBe('x/note (3).md');
    expect(new Set([forward.get('d'), forward.get('e')])).toEqual(
      new Set(['x/No_te.md', 'x/No_te (2).md']),
    );
  });

  it('never writes a note where a folder of the same name must be', () => {
    const paths = exportPaths([doc('1', 'a.md'), doc('2', 'inside', 'a.md')]);
    expect(paths.get('2')).toBe('a.md/inside.md');
    expect(paths.get('1')).toBe('a.md.md');
    const clash = exportPaths([doc('1', 'Notes'), doc('2', 'x', 'Notes.md')]);
    expect(clash.get('1')).toBe('Notes (2).md');
  });

  it('exports one folder under its own name, leaving the rest out', () => {
    const paths = exportPaths(
      [doc('1', 'A', 'Work/Projects'), doc('2', 'B', 'Work/Projects/Old'), doc('3', 'C', 'Work')],
      'Work/Projects',
    );
    expect(paths.get('1')).toBe('Projects/A.md');
    expect(paths.get('2')).toBe('Projects/Old/B.md');
    expect(paths.has('3')).toBe(false);
  });

  it('makes every folder name safe, so no path climbs out', () => {
    const paths = exportPaths([doc('1', '..', 'a:b/c|d')]);
    expect(paths.get('1')).toBe('a_b/c_d/Untitled.md');
  });
});
