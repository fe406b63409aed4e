import { loadMarkdownCodec } from '../editor/markdown/codec.ts';
import { randomUuid } from '../../lib/randomUuid.ts';
import { uploadFile } from '../../lib/uploadFile.ts';
import { fetchUploadedImage } from '../editor/uploads/fetchUploadedImage.ts';
import { mapEmbedSources, mapImageSources } from '../editor/uploads/imageSources.ts';
import { loadServerConfig } from '../ai/aiConfig.ts';
import { exportVault, type VaultExport } from './exportVault.ts';
import { importVault, type ImportStage, type ImportSummary } from './importVault.ts';
import { listVault, sendVaultBatch, vaultMarkdown } from './vaultApi.ts';
import type { VaultInput } from './vaultInput.ts';
import { filesOf } from './vaultSources.ts';

/** Reports `done` of `total` notes (or, first, of a vault's images). */
export type OnProgress = (done: number, total: number, stage?: ImportStage) => void;

/** Yields to the browser: it paints the progress and handles input before the next note. */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Imports a vault with the app's codec and API. Loaded on first use with fflate and the
 * pipelines, as most visits never import or export a vault.
 */
export async function runImport(input: VaultInput, onProgress: OnProgress): Promise<ImportSummary> {
  const [files, codec, config] = await Promise.all([
    filesOf(input),
    loadMarkdownCodec(),
    // The server's upload limit decides which images are worth reading; without an answer
    // (offline) the default stands, and the server still judges each upload.
    loadServerConfig().catch(() => null),
  ]);
  return importVault(files, {
    // The codec's default schema is the editor's (built once); importing it here would make
    // the bundler split the editor's packages out of the first download into extra chunks.
    parse: (bytes, images) => {
      const doc = codec.parseMarkdown(codec.decodeMarkdownFile(bytes));
      return JSON.stringify(
        mapEmbedSources(mapImageSources(doc, images.image), images.embed).toJSON(),
      );
    },
    uploadImage: async (bytes, name) =>
      // A vault may hold more images than the server takes in a minute: its limit is waited out.
      (
        await uploadFile(new Blob([bytes as Uint8Array<ArrayBuffer>]), name, {
          waitIfLimited: true,
        })
      ).url,
    ...(config ? { maxImageBytes: config.limits.fileBytes } : {}),
    send: sendVaultBatch,
    newId: randomUuid,
    yieldToBrowser,
    onProgress,
  });
}

/** Exports a folder ('' for everything) as a zip, through the app's API. */
export async function runExport(folder: string, onProgress: OnProgress): Promise<VaultExport> {
  const codec = await loadMarkdownCodec();
  return exportVault(folder, {
    list: listVault,
    markdown: vaultMarkdown,
    yieldToBrowser,
    onProgress,
    images: {
      fetchImage: fetchUploadedImage,
      // Only notes that hold an uploaded image's address are parsed and written again.
      relink: (markdown, replace) =>
        codec.serializeMarkdown(mapImageSources(codec.parseMarkdown(markdown), replace)),
    },
  });
}
