/**
 * How a wikilink's target finds a document (docs/PRODUCT.md "Markdown"): by title, regardless of
 * case, as Obsidian finds a note by its file name. Shared by the server, which resolves links and
 * lists backlinks, and the editor.
 */

/**
 * Most targets one request may ask the server to resolve: far more distinct links than any note
 * holds (here, not in common/api, so the editor reads it without loading zod).
 */
export const MAX_RESOLVE_TARGETS = 2000;

/** An extension that makes a target a file rather than a note (`image.png`, `paper.pdf`). */
const FILE_EXTENSION = /\.([A-Za-z][A-Za-z0-9]{0,9})$/;

/** Folds case and Unicode forms, so `Café`, `CAFÉ` and a decomposed `café` are one key. */
function fold(text: string): string {
  return text.normalize('NFC').trim().toLowerCase();
}

/** The key a document is found by: its title, folded. */
export function titleKey(title: string): string {
  return fold(title);
}

/** The whole target, folded, without a `.md` ending: `Folder/Note.md` → `folder/note`. */
export function targetPath(target: string): string {
  return fold(target).replace(/\.md$/, '').trim();
}

/** The last segment of {@link targetPath}: what a path-like target matches a title by. */
export function targetName(target: string): string {
  const path = targetPath(target);
  return path.slice(path.lastIndexOf('/') + 1).trim();
}

/** True for a target with a file extension other than `.md`: an attachment, not a note. */
export function isAttachment(target: string): boolean {
  const match = FILE_EXTENSION.exec(target.trim());
  return match !== null && match[1]!.toLowerCase() !== 'md';
}

/** A document a wikilink may resolve to. */
export interface LinkableDocument {
  /** Its id. */
  id: string;
  /** Its title. */
  title: string;
  /** The folder it sits in (`Projects/2024`), for documents imported with their folders. */
  folder?: string;
}

/** Finds documents by the targets of wikilinks. */
export class TitleIndex {
  private readonly byTitle = new Map<string, string>();
  private readonly byPath = new Map<string, string>();

  /** `documents` in order of preference: where titles repeat, the first one wins. */
  constructor(documents: Iterable<LinkableDocument>) {
    for (const document of documents) {
      const key = titleKey(document.title);
      if (key === '') continue;
      if (!this.byTitle.has(key)) this.byTitle.set(key, document.id);
      const folder = document.folder?.replace(/^\/+|\/+$/g, '');
      if (folder) {
        const path = targetPath(`${folder}/${document.title}`);
        if (!this.byPath.has(path)) this.byPath.set(path, document.id);
      }
    }
  }

  /**
   * The id of the document `target` points at, or null. A path-like target (`folder/Note`)
   * finds the document in that folder first, then a title holding the `/`, then any document
   * titled as its last segment (as Obsidian does). A file is never a note.
   */
  resolve(target: string): string | null {
    if (isAttachment(target)) return null;
    const path = targetPath(target);
    if (path === '') return null;
    return (
      this.byPath.get(path) ??
      this.byTitle.get(path) ??
      this.byTitle.get(targetName(target)) ??
      null
    );
  }
}

/**
 * `target` found the document titled `oldTitle`, now titled `newTitle`: the target that finds it
 * again. A path keeps its folders (only the last segment is the title) and a `.md` ending stays.
 */
export function renamedTarget(target: string, oldTitle: string, newTitle: string): string {
  const ending = /\.md$/i.exec(target.trim())?.[0] ?? '';
  if (targetPath(target) === titleKey(oldTitle)) return `${newTitle}${ending}`;
  const slash = target.lastIndexOf('/');
  return `${target.slice(0, slash + 1)}${newTitle}${ending}`;
}
