import { describe, expect, it } from 'vitest';
import type { DocumentSummary } from '../../../common/api/documents.ts';
import { buildFolderTree, foldersLeadingTo } from './folderTree.ts';

const summary = (id: string, folder?: string): DocumentSummary => ({
  id,
  title: id,
  folder,
  excerpt: '',
  version: 1,
  createdAt: '',
  updatedAt: '',
  deletedAt: null,
});

describe('buildFolderTree', () => {
  it('nests folders by path, sorted by name with numbers in order, documents in list order', () => {
    const tree = buildFolderTree([
      summary('top'),
      summary('plan', 'Projects/2026'),
      summary('b', 'Folder 10'),
      summary('a', 'Folder 9'),
      summary('old', 'Projects'),
      summary('older', 'Projects'),
      summary('legacy', undefined),
    ]);
    expect(tree.documents.map((d) => d.id)).toEqual(['top', 'legacy']);
    expect(tree.folders.map((f) => f.path)).toEqual(['Folder 9', 'Folder 10', 'Projects']);
    const projects = tree.folders[2]!;
    expect(projects.documents.map((d) => d.id)).toEqual(['old', 'older']);
    expect(projects.folders).toMatchObject([{ name: '2026', path: 'Projects/2026' }]);
    expect(projects.folders[0]!.documents.map((d) => d.id)).toEqual(['plan']);
  });

  it('creates the folders between the top and a deep document', () => {
    const tree = buildFolderTree([summary('deep', 'a/b/c')]);
    expect(tree.folders[0]!.folders[0]!.folders[0]!.path).toBe('a/b/c');
  });
});

describe('foldersLeadingTo', () => {
  it('lists each folder from the top down to the given one', () => {
    expect(foldersLeadingTo('a/b/c')).toEqual(['a', 'a/b', 'a/b/c']);
    expect(foldersLeadingTo('')).toEqual([]);
  });
});
