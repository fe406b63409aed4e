/**
 * What a vault import starts from, as the page hands it over. Kept apart from the readers
 * (vaultSources.ts, with fflate) so that the sidebar's first download holds none of them.
 */
export type VaultInput =
  /** A zipped vault. */
  | { kind: 'zip'; file: File }
  /** Files chosen with a folder picker, paths in `webkitRelativePath`. */
  | { kind: 'files'; files: File[] }
  /** Folders (and files) dropped on the page. */
  | { kind: 'entries'; entries: FileSystemEntry[] };

/** True for a file to import as a zipped vault. */
export function isZipFile(file: Pick<File, 'name' | 'type'>): boolean {
  return /\.zip$/i.test(file.name) || file.type === 'application/zip';
}

/**
 * A vault in a drop, or null when the drop is something else (a single note, text). Must run
 * during the drop event: the browser forgets the dropped items when it returns.
 */
export function vaultOfDrop(data: DataTransfer | null): VaultInput | null {
  if (!data) return null;
  const entries = [...data.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry())
    .filter((entry): entry is FileSystemEntry => entry !== null);
  if (entries.some((entry) => entry.isDirectory)) return { kind: 'entries', entries };
  const zip = [...data.files].find(isZipFile);
  return zip ? { kind: 'zip', file: zip } : null;
}
