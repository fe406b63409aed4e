import {
  bytesSource,
  listZipEntries,
  readZipEntry,
  VaultArchiveError,
  type RandomAccess,
} from '../../../common/vault/zipReader.ts';
import { classifyVaultPath } from '../../../common/vault/vaultPaths.ts';
import { VAULT_LIMITS, type VaultFile } from './importVault.ts';
import type { VaultInput } from './vaultInput.ts';

/** A File read in slices: a vault of large attachments is never loaded whole. */
export function fileSource(file: Blob): RandomAccess {
  return {
    size: file.size,
    read: async (offset, length) =>
      new Uint8Array(await file.slice(offset, offset + length).arrayBuffer()),
  };
}

/**
 * Up to this size a zip is read into memory at once: each read of a slice of a File costs the
 * browser about a millisecond, two per note, which made a 1,000-note vault 2 s slower.
 */
const READ_WHOLE_BYTES = 64 * 1024 * 1024;

/** The files of a zipped vault; only the entries imported as notes are ever inflated. */
export async function filesOfZip(zip: Blob): Promise<VaultFile[]> {
  const source =
    zip.size <= READ_WHOLE_BYTES
      ? bytesSource(new Uint8Array(await zip.arrayBuffer()))
      : fileSource(zip);
  const entries = await listZipEntries(source, { maxEntries: VAULT_LIMITS.maxEntries });
  return entries
    .filter((entry) => classifyVaultPath(entry.name).kind !== 'folder')
    .map((entry) => ({
      path: entry.name,
      size: entry.size,
      read: (maxBytes: number) => readZipEntry(source, entry, maxBytes),
    }));
}

/** The files chosen with a folder picker (`webkitdirectory`), under the folder's own name. */
export function filesOfFolderPick(files: Iterable<File>): VaultFile[] {
  return [...files].map((file) => ({
    path: file.webkitRelativePath || file.name,
    size: file.size,
    read: async () => new Uint8Array(await file.arrayBuffer()),
  }));
}

function readBatch(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/**
 * The files under dropped folders, paths starting at each dropped folder's name as a folder
 * pick does. Stops with an error past the entry limit rather than walking a whole disk.
 */
export async function filesOfEntries(entries: readonly FileSystemEntry[]): Promise<VaultFile[]> {
  const files: VaultFile[] = [];
  const walk = async (entry: FileSystemEntry, path: string): Promise<void> => {
    if (files.length > VAULT_LIMITS.maxEntries) {
      throw new VaultArchiveError(
        'too_many_entries',
        `This folder holds more than ${VAULT_LIMITS.maxEntries.toLocaleString('en-US')} files, the most a vault may hold.`,
      );
    }
    if (entry.isFile) {
      const file = await fileOf(entry as FileSystemFileEntry);
      files.push({
        path,
        size: file.size,
        read: async () => new Uint8Array(await file.arrayBuffer()),
      });
      return;
    }
    // Settings folders (`.obsidian`, `.git`) can be large and are skipped anyway: not walked,
    // but counted once as hidden in the summary.
    if (entry.name.startsWith('.')) {
      files.push({ path, size: 0, read: () => Promise.resolve(new Uint8Array()) });
      return;
    }
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    // readEntries answers in pages (100 in Chromium) until an empty one.
    for (let page = await readBatch(reader); page.length > 0; page = await readBatch(reader)) {
      for (const child of page) await walk(child, `${path}/${child.name}`);
    }
  };
  for (const entry of entries) await walk(entry, entry.name);
  return files;
}

/** The files of whatever the page handed over. */
export function filesOf(input: VaultInput): Promise<VaultFile[]> {
  if (input.kind === 'zip') return filesOfZip(input.file);
  if (input.kind === 'files') return Promise.resolve(filesOfFolderPick(input.files));
  return filesOfEntries(input.entries);
}
