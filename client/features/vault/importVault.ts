import { DEFAULT_LIMITS } from '../../../common/api/limits.ts';
import type { VaultImportResult } from '../../../common/api/vault.ts';
import { VAULT_BATCH_DOCUMENTS } from '../../../common/api/vault.ts';
import { classifyVaultPath, displayPath } from '../../../common/vault/vaultPaths.ts';
import { formatBytes, VaultArchiveError } from '../../../common/vault/zipReader.ts';
import { DEFAULT_FILE_MAX_BYTES } from '../../../common/api/files.ts';
import { embedResolver, imageResolver, isImagePath, normalVaultPath } from './vaultImages.ts';

/** One file of a vault being imported, whatever it came from (a zip, a folder, a drop). */
export interface VaultFile {
  /** Its path inside the vault, folders separated by `/` (or `\`). */
  path: string;
  /** Its size in bytes, as declared (a zip entry's may lie; reading checks). */
  size: number;
  /**
   * Its bytes; rejects with a sentence for people when they cannot be read, or when a zip entry
   * inflates past `maxBytes` (a folder's files are checked by their size before reading).
   */
  read(maxBytes: number): Promise<Uint8Array>;
}

/** Limits of one vault import (docs/PRODUCT.md "Limits"). */
export const VAULT_LIMITS = {
  /** Most files (entries of a zip, files of a folder) a vault may hold. */
  maxEntries: 10_000,
  /** Most bytes of Markdown a vault may hold, all notes together. */
  maxTotalBytes: 256 * 1024 * 1024,
  /** Largest note, as the single Markdown import allows. */
  maxFileBytes: DEFAULT_LIMITS.importBytes,
  /** Largest document, as JSON, the server accepts. */
  maxDocumentBytes: DEFAULT_LIMITS.documentBytes,
  /** A batch is sent once its JSON reaches this many bytes. */
  batchBytes: 2 * 1024 * 1024,
} as const;

/** A note on its way to the server, its content already JSON text (sent as it is). */
export interface OutgoingNote {
  id: string;
  title: string;
  folder: string;
  /** The content as JSON text. */
  content: string;
}

/** How a note's links find the vault's uploaded images; each answers null to keep a link. */
export interface NoteImages {
  /** The address for an image link's address (`images/shot.png`). */
  image(src: string): string | null;
  /** The address for an embed's target (`diagram.png` of `![[diagram.png]]`). */
  embed(target: string): string | null;
}

/** What the import is doing: uploading the vault's images, then importing its notes. */
export type ImportStage = 'images' | 'notes';

/** What {@link importVault} needs from the app; tests pass fakes. */
export interface ImportDeps {
  /**
   * Markdown bytes to the content JSON text, its image links and embeds pointed at the
   * addresses `images` finds; throws with a sentence when the codec refuses.
   */
  parse(bytes: Uint8Array, images: NoteImages): string;
  /**
   * Uploads an image of the vault and resolves with its address (`/files/<id>`); rejects with a
   * sentence for people. Without it, images are kept for later as other attachments are.
   */
  uploadImage?(bytes: Uint8Array, name: string): Promise<string>;
  /**
   * The largest image the server takes (`limits.fileBytes` of `GET /api/config`, from
   * `FILE_MAX_BYTES`); larger ones are listed as refused without being read.
   */
  maxImageBytes?: number;
  /** Sends a batch; one result per document, in order. */
  send(documents: OutgoingNote[]): Promise<VaultImportResult[]>;
  /** A new random document id. */
  newId(): string;
  /** Lets the browser paint and handle input; called between notes. */
  yieldToBrowser(): Promise<void>;
  /** Called as images are uploaded, then as notes are handled: `done` of `total`. */
  onProgress(done: number, total: number, stage: ImportStage): void;
}

/** A file left out, and why. */
export interface ImportProblem {
  /** The path as it was in the vault, made printable. */
  path: string;
  /** Why, for people. */
  reason: string;
}

/** What an import did, for the summary. */
export interface ImportSummary {
  /** Markdown files found. */
  notes: number;
  /** Notes now in Inkwell (created, or already there from an earlier try). */
  imported: number;
  /** Folders they are in. */
  folders: number;
  /** Images uploaded, which the notes' relative image links now show. */
  images: number;
  /** Files kept for later: attachments other than images (PDFs), which Inkwell cannot store yet. */
  keptForLater: string[];
  /** Settings and hidden files skipped (`.obsidian/`, `.trash/`, dot-files). */
  hidden: number;
  /** Notes and paths that could not be imported, each with its reason. */
  failed: ImportProblem[];
  /** Set when sending stopped part way (offline): what the server said or why. */
  stopped: string | null;
}

/** Long enough for a frame's worth of parsing, short enough that typing stays smooth. */
const SLICE_MS = 12;

/** A sentence for an error thrown while reading or parsing a note. */
function reasonOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'It could not be read.';
}

/**
 * Imports a vault: every Markdown file becomes a document titled after its file name, in its
 * folder. Notes are read and parsed one at a time, yielding to the browser between them, and
 * sent in batches with at most one batch in flight. Nothing is dropped silently: attachments are
 * listed as kept for later, and each refused file is listed with its reason while the rest import.
 * Throws {@link VaultArchiveError} before importing anything when the vault is over its limits.
 */
export async function importVault(
  files: readonly VaultFile[],
  deps: ImportDeps,
): Promise<ImportSummary> {
  if (files.length > VAULT_LIMITS.maxEntries) {
    throw new VaultArchiveError(
      'too_many_entries',
      `This vault holds ${files.length.toLocaleString('en-US')} files; a vault may hold at most ${VAULT_LIMITS.maxEntries.toLocaleString('en-US')}.`,
    );
  }
  const summary: ImportSummary = {
    notes: 0,
    imported: 0,
    folders: 0,
    images: 0,
    keptForLater: [],
    hidden: 0,
    failed: [],
    stopped: null,
  };
  const notes: { file: VaultFile; folder: string; title: string }[] = [];
  const images: VaultFile[] = [];
  const seen = new Set<string>();
  let totalBytes = 0;
  for (const file of files) {
    const path = classifyVaultPath(file.path);
    if (path.kind === 'hidden') summary.hidden++;
    else if (path.kind === 'attachment') {
      if (deps.uploadImage && isImagePath(file.path)) images.push(file);
      else summary.keptForLater.push(displayPath(file.path));
    } else if (path.kind === 'refused') {
      summary.failed.push({ path: displayPath(file.path), reason: path.reason });
    } else if (path.kind === 'note') {
      if (seen.has(file.path)) {
        summary.failed.push({
          path: displayPath(file.path),
          reason: 'The vault holds another file at the same path; the first one was imported.',
        });
        continue;
      }
      seen.add(file.path);
      notes.push({ file, folder: path.folder, title: path.title.trim() });
      // Only what will be read counts: a vault of large images imports its notes.
      totalBytes += Math.min(file.size, VAULT_LIMITS.maxFileBytes + 1);
    }
  }
  summary.notes = notes.length;
  if (totalBytes > VAULT_LIMITS.maxTotalBytes) {
    throw new VaultArchiveError(
      'too_large',
      `The notes of this vault come to ${formatBytes(totalBytes)}; a vault import takes up to ${formatBytes(VAULT_LIMITS.maxTotalBytes)} of Markdown.`,
    );
  }

  const folders = new Set<string>();
  let batch: { document: OutgoingNote; path: string }[] = [];
  let batchBytes = 0;
  let inFlight: Promise<void> = Promise.resolve();
  let stopped = false;

  const send = (items: typeof batch) =>
    deps.send(items.map((item) => item.document)).then(
      (results) => {
        results.forEach((result, i) => {
          const item = items[i];
          if (!item) return;
          if (result.outcome === 'refused') {
            summary.failed.push({
              path: item.path,
              reason: result.message ?? 'The server refused it.',
            });
          } else {
            summary.imported++;
            if (item.document.folder) folders.add(item.document.folder);
          }
        });
      },
      (error: unknown) => {
        stopped = true;
        summary.stopped = reasonOf(error);
      },
    );
  const flush = async () => {
    if (batch.length === 0) return;
    const items = batch;
    batch = [];
    batchBytes = 0;
    await inFlight;
    if (!stopped) inFlight = send(items);
  };

  const uploaded = await uploadImages(images, deps, summary);

  let sliceStart = performance.now();
  deps.onProgress(0, notes.length, 'notes');
  for (const [index, { file, folder, title }] of notes.entries()) {
    if (stopped) break;
    const path = displayPath(file.path);
    try {
      if (file.size > VAULT_LIMITS.maxFileBytes) {
        throw new Error(
          `It is ${formatBytes(file.size)}; notes up to ${formatBytes(VAULT_LIMITS.maxFileBytes)} can be imported.`,
        );
      }
      const json = deps.parse(await file.read(VAULT_LIMITS.maxFileBytes), {
        image: imageResolver(file.path, uploaded),
        embed: embedResolver(file.path, uploaded),
      });
      const bytes = new TextEncoder().encode(json).length;
      if (bytes > VAULT_LIMITS.maxDocumentBytes) {
        throw new Error(
          `It is larger than ${formatBytes(VAULT_LIMITS.maxDocumentBytes)} once imported.`,
        );
      }
      if (batch.length > 0 && batchBytes + bytes > VAULT_LIMITS.batchBytes) await flush();
      batch.push({
        document: {
          id: deps.newId(),
          title: title.slice(0, DEFAULT_LIMITS.titleChars).trim(),
          folder,
          content: json,
        },
        path,
      });
      batchBytes += bytes;
      if (batch.length >= VAULT_BATCH_DOCUMENTS / 2) await flush();
    } catch (error) {
      summary.failed.push({ path, reason: reasonOf(error) });
    }
    deps.onProgress(index + 1, notes.length, 'notes');
    if (performance.now() - sliceStart > SLICE_MS) {
      await deps.yieldToBrowser();
      sliceStart = performance.now();
    }
  }
  await flush();
  await inFlight;
  summary.folders = folders.size;
  return summary;
}

/**
 * Uploads the vault's images one at a time, before the notes that link them, and maps each
 * one's vault path (lower case) to its address. One the server refuses (not an image after all:
 * 415) is listed with the server's reason, one over the server's size limit with the sizes; the
 * notes linking it keep their links as written.
 */
async function uploadImages(
  images: readonly VaultFile[],
  deps: ImportDeps,
  summary: ImportSummary,
): Promise<Map<string, string>> {
  const uploaded = new Map<string, string>();
  const upload = deps.uploadImage;
  if (!upload) return uploaded;
  const maxBytes = deps.maxImageBytes ?? DEFAULT_FILE_MAX_BYTES;
  for (const [index, file] of images.entries()) {
    deps.onProgress(index, images.length, 'images');
    const key = normalVaultPath(file.path)?.toLowerCase();
    if (key === undefined || uploaded.has(key)) continue;
    try {
      if (file.size > maxBytes) {
        throw new Error(
          `It is ${formatBytes(file.size)}; images up to ${formatBytes(maxBytes)} can be uploaded.`,
        );
      }
      const name = file.path.replaceAll('\\', '/').split('/').pop() ?? '';
      uploaded.set(key, await upload(await file.read(maxBytes), name));
      summary.images++;
    } catch (error) {
      summary.failed.push({ path: displayPath(file.path), reason: reasonOf(error) });
    }
    await deps.yieldToBrowser();
  }
  if (images.length > 0) deps.onProgress(images.length, images.length, 'images');
  return uploaded;
}
