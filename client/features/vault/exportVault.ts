import { VAULT_EXPORT_BATCH, type VaultEntry } from '../../../common/api/vault.ts';
import { exportPaths, safeName } from '../../../common/vault/vaultPaths.ts';
import { ZipWriter } from '../../../common/vault/zipWriter.ts';
import { vaultImageWriter, type VaultImageDeps } from './exportImages.ts';

/** What {@link exportVault} needs from the app; tests and the benchmark pass their own. */
export interface ExportDeps {
  /** The documents to export. */
  list(folder: string): Promise<VaultEntry[]>;
  /** The Markdown of a batch of them, and the ids the server left for another request. */
  markdown(ids: readonly string[]): Promise<{
    files: { id: string; markdown: string; embeds?: { target: string; src: string }[] }[];
    later: string[];
  }>;
  /** Lets the browser paint between batches. */
  yieldToBrowser(): Promise<void>;
  /** Called as documents are written: `done` of `total`. */
  onProgress(done: number, total: number): void;
  /** Writes uploaded images into the zip; without it they stay linked by address. */
  images?: VaultImageDeps;
}

/** A finished export. */
export interface VaultExport {
  /** The file name to save it under. */
  fileName: string;
  /** The archive, in chunks (a Blob takes them as they are). */
  chunks: Uint8Array<ArrayBuffer>[];
  /** Documents written. */
  count: number;
  /** Uploaded images that could not be fetched, left linked by address. */
  missingImages: number;
}

/**
 * Exports a folder and everything below it ('' for all documents) as a zip in the layout a vault
 * has, `folder/Title.md`, which Obsidian opens as it is. The Markdown comes from the server in
 * batches and is zipped here, so progress can be shown and the server never holds a whole vault.
 */
export async function exportVault(folder: string, deps: ExportDeps): Promise<VaultExport> {
  const documents = await deps.list(folder);
  const paths = exportPaths(documents, folder);
  const modified = new Map(documents.map((d) => [d.id, new Date(d.updatedAt)]));
  const zip = new ZipWriter();
  const images = deps.images ? vaultImageWriter(zip, deps.images) : null;
  let done = 0;
  let handled = 0;
  deps.onProgress(0, documents.length);
  const queue = documents.map((d) => d.id);
  while (queue.length > 0) {
    const ids = queue.splice(0, VAULT_EXPORT_BATCH);
    const { files, later } = await deps.markdown(ids);
    if (files.length === 0 && later.length === ids.length) {
      throw new Error('The server sent no Markdown for the documents asked for.');
    }
    for (const file of files) {
      const path = paths.get(file.id);
      if (path === undefined) continue;
      const markdown = images ? await images.relink(file.markdown, path) : file.markdown;
      zip.add(path, markdown, modified.get(file.id));
      if (images && file.embeds) await images.placeEmbeds(file.embeds, path);
    }
    // A document trashed since the listing is simply not there; the count says what was written.
    done += files.length;
    handled += ids.length - later.length;
    queue.unshift(...later);
    deps.onProgress(handled, documents.length);
    await deps.yieldToBrowser();
  }
  const last = folder.slice(folder.lastIndexOf('/') + 1);
  return {
    fileName: `${safeName(last || 'Inkwell')}.zip`,
    chunks: zip.finish(),
    count: done,
    missingImages: images?.missing ?? 0,
  };
}
