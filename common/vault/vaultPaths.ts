import { DEFAULT_LIMITS } from '../api/limits.ts';
import { folderProblem, isInFolder } from './folderPath.ts';

/** What a path in an imported vault (a zip entry or a file in a folder) is. */
export type VaultPath =
  /** A Markdown file: one document titled after the file, in `folder`. */
  | { kind: 'note'; folder: string; title: string }
  /** Any other file (an image, a PDF): kept for later, as file storage does not exist yet. */
  | { kind: 'attachment' }
  /** Inside a dot-folder such as `.obsidian/`, a dot-file, or macOS's `__MACOSX/`: settings, not notes. */
  | { kind: 'hidden' }
  /** A folder entry of a zip: its notes come as entries of their own. */
  | { kind: 'folder' }
  /** A path that must not be followed (outside the vault, absolute) or cannot be kept. */
  | { kind: 'refused'; reason: string };

const MARKDOWN_NAME = /\.(?:md|markdown|mdown|mkd|mkdn)$/i;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

/**
 * Reads a path as written in a vault. Backslashes count as separators (zips made on Windows);
 * `.` and empty segments are dropped. A path that is absolute or climbs out with `..` (a "zip
 * slip") is refused rather than cleaned up: it was made to reach somewhere else.
 */
export function classifyVaultPath(raw: string): VaultPath {
  const path = raw.replaceAll('\\', '/');
  if (path.startsWith('/') || /^[a-z]:/i.test(path)) {
    return { kind: 'refused', reason: 'Its path is absolute, so it would land outside the vault.' };
  }
  if (path.endsWith('/')) return { kind: 'folder' };
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) {
    return { kind: 'refused', reason: 'Its path climbs out of the vault with “..”.' };
  }
  if (segments.some((segment) => segment.startsWith('.') || segment === '__MACOSX')) {
    return { kind: 'hidden' };
  }
  if (segments.some((segment) => CONTROL.test(segment))) {
    return { kind: 'refused', reason: 'Its path holds control characters.' };
  }
  const name = segments.pop();
  if (name === undefined) return { kind: 'folder' };
  if (!MARKDOWN_NAME.test(name)) return { kind: 'attachment' };
  const folder = segments.join('/');
  const problem = folderProblem(folder);
  if (problem) return { kind: 'refused', reason: problem };
  const title = name.replace(MARKDOWN_NAME, '');
  if (title.length > DEFAULT_LIMITS.titleChars) {
    return {
      kind: 'refused',
      reason: `Its name is longer than the ${DEFAULT_LIMITS.titleChars} characters a title may have.`,
    };
  }
  return { kind: 'note', folder, title };
}

/** A path as shown to people: control characters made visible, so a name cannot fake a line. */
export function displayPath(raw: string): string {
  return raw.replace(new RegExp(CONTROL.source, 'gu'), '\uFFFD');
}

// eslint-disable-next-line no-control-regex
const UNSAFE_IN_NAME = /[\u0000-\u001f\u007f<>:"/\\|?*]/g;
/** Names Windows keeps for devices, with or without an extension. */
const RESERVED = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\.|$)/i;
/** Longest file or folder name written, in UTF-8 bytes: most file systems stop at 255. */
const MAX_NAME_BYTES = 240;

function cutToBytes(text: string, max: number): string {
  const encoder = new TextEncoder();
  if (encoder.encode(text).length <= max) return text;
  let out = '';
  let bytes = 0;
  for (const char of text) {
    bytes += encoder.encode(char).length;
    if (bytes > max) break;
    out += char;
  }
  return out;
}

/**
 * A file or folder name every common file system accepts, and the same name unchanged when it
 * already is one (so that a vault comes back as it went in): characters Windows refuses become
 * `_`, leading dots (hidden files, `..`) and trailing dots and spaces go, device names such as
 * `CON` get a `_` in front, and long names are cut.
 */
export function safeName(name: string, room = MAX_NAME_BYTES): string {
  let safe = name
    .replace(UNSAFE_IN_NAME, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  safe = cutToBytes(safe, room).replace(/[.\s]+$/, '');
  if (RESERVED.test(safe)) safe = `_${safe}`;
  return safe || 'Untitled';
}

/** A document as export names it. */
export interface ExportedDocument {
  id: string;
  title: string;
  folder: string;
  createdAt: string;
}

/** Compares as the file systems that ignore case and Unicode normalisation do (Windows, macOS). */
const fold = (path: string) => path.normalize('NFC').toLowerCase();

/**
 * The path of each document in an exported vault: `folder/Title.md`, with every name made safe.
 * Two documents that would share a path (same title, or titles equal but for case or a refused
 * character) are told apart as `Title (2).md`, `Title (3).md`, in a fixed order (folder, title,
 * creation, id), so the same documents always get the same names. With `root`, only the
 * documents in that folder and below, under the root's own name.
 */
export function exportPaths(
  documents: readonly ExportedDocument[],
  root = '',
): Map<string, string> {
  const strip = root.includes('/') ? root.slice(0, root.lastIndexOf('/') + 1) : '';
  const folderPath = (folder: string) =>
    folder === ''
      ? ''
      : folder
          .slice(strip.length)
          .split('/')
          .map((segment) => safeName(segment))
          .join('/');
  const sorted = documents
    .filter((document) => isInFolder(document.folder, root))
    .sort(
      (a, b) =>
        compare(a.folder, b.folder) ||
        compare(a.title, b.title) ||
        compare(a.createdAt, b.createdAt) ||
        compare(a.id, b.id),
    );
  const taken = new Set<string>();
  // A folder's name is taken in its parent, so that no note is written where a folder must be.
  for (const document of sorted) {
    const segments = folderPath(document.folder).split('/');
    for (let i = 1; i <= segments.length; i++) taken.add(fold(segments.slice(0, i).join('/')));
  }
  const paths = new Map<string, string>();
  for (const document of sorted) {
    const folder = folderPath(document.folder);
    const prefix = folder === '' ? '' : `${folder}/`;
    const base = safeName(document.title, MAX_NAME_BYTES - 12);
    let path = `${prefix}${base}.md`;
    for (let n = 2; taken.has(fold(path)); n++) path = `${prefix}${base} (${n}).md`;
    taken.add(fold(path));
    paths.set(document.id, path);
  }
  return paths;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
