import type { DocumentSummary } from '../../../common/api/documents.ts';

/** A folder of the sidebar, with what it holds. */
export interface FolderNode {
  /** Its own name. */
  name: string;
  /** Its full path, `Projects/2026`. */
  path: string;
  /** Folders inside it, by name. */
  folders: FolderNode[];
  /** Documents directly in it, in the list's order (most recently changed first). */
  documents: DocumentSummary[];
}

const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** The documents as a tree of folders; the root (path '') holds the documents at the top. */
export function buildFolderTree(documents: readonly DocumentSummary[]): FolderNode {
  const root: FolderNode = { name: '', path: '', folders: [], documents: [] };
  const nodes = new Map<string, FolderNode>([['', root]]);
  const nodeOf = (path: string): FolderNode => {
    const known = nodes.get(path);
    if (known) return known;
    const slash = path.lastIndexOf('/');
    const parent = nodeOf(slash < 0 ? '' : path.slice(0, slash));
    const node: FolderNode = { name: path.slice(slash + 1), path, folders: [], documents: [] };
    parent.folders.push(node);
    nodes.set(path, node);
    return node;
  };
  for (const document of documents) nodeOf(document.folder ?? '').documents.push(document);
  for (const node of nodes.values()) node.folders.sort((a, b) => byName.compare(a.name, b.name));
  return root;
}

/** `a/b/c` → `a`, `a/b`, `a/b/c`: the folders to open to show something in `c`. */
export function foldersLeadingTo(folder: string): string[] {
  if (!folder) return [];
  const segments = folder.split('/');
  return segments.map((_, i) => segments.slice(0, i + 1).join('/'));
}
