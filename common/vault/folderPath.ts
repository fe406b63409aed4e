/**
 * Folder paths of documents: `Projects/2026/Notes`, '' for the top. Stored as written in the vault
 * (so that a vault comes back out with the same layout) but only in a shape that can never name
 * a place outside it: no `..` or `.` segment, no leading or trailing `/`, no empty segment, no
 * backslash (a separator on Windows) and no control character.
 */

/** Longest folder path, in characters. */
export const MAX_FOLDER_CHARS = 1000;
/** Most folders one inside another; real vaults stay under ten. */
export const MAX_FOLDER_DEPTH = 32;
/** Longest folder name (one segment), in characters: what file systems allow, about. */
export const MAX_SEGMENT_CHARS = 255;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

/** Why a folder path is refused, as a sentence for people; null when it is fine. */
export function folderProblem(folder: string): string | null {
  if (folder === '') return null;
  if (folder.length > MAX_FOLDER_CHARS) {
    return `A folder path has at most ${MAX_FOLDER_CHARS} characters.`;
  }
  if (CONTROL.test(folder)) return 'A folder path cannot hold control characters.';
  if (folder.includes('\\')) return 'A folder path separates folders with “/”, not “\\”.';
  if (folder.startsWith('/')) return 'A folder path cannot start with “/”.';
  const segments = folder.split('/');
  if (segments.length > MAX_FOLDER_DEPTH) {
    return `Folders nest at most ${MAX_FOLDER_DEPTH} deep.`;
  }
  for (const segment of segments) {
    if (segment === '')
      return 'A folder path cannot have an empty folder name (“//” or a “/” at the end).';
    if (segment === '.' || segment === '..') return 'A folder path cannot hold “.” or “..”.';
    if (segment.length > MAX_SEGMENT_CHARS) {
      return `A folder name has at most ${MAX_SEGMENT_CHARS} characters.`;
    }
  }
  return null;
}

/** The folder holding `folder` ('' for a top-level one or the top itself). */
export function parentFolder(folder: string): string {
  const slash = folder.lastIndexOf('/');
  return slash < 0 ? '' : folder.slice(0, slash);
}

/** True if `folder` is `ancestor` or lies somewhere inside it ('' holds everything). */
export function isInFolder(folder: string, ancestor: string): boolean {
  return ancestor === '' || folder === ancestor || folder.startsWith(`${ancestor}/`);
}
