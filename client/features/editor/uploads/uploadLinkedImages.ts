import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { UploadedFile } from '../../../../common/api/files.ts';
import { isImagePath } from '../../vault/vaultImages.ts';
import { mapEmbedSources, mapImageSources } from './imageSources.ts';

/** What {@link uploadLinkedImages} did. */
export interface LinkedImagesResult {
  /** The document with each image it links that came along pointing at its uploaded file. */
  doc: ProseMirrorNode;
  /** Images that came along and were linked, now uploaded. */
  uploaded: number;
  /** Images whose upload failed (their links stay as written), and the first reason. */
  failed: number;
  reason: string | null;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The file name a relative link or an embed ends in, lower case (`images/a%20b.png` → `a b.png`),
 * or null for a web, data or absolute address, or a name that is not an image.
 */
function linkedName(src: string): string | null {
  if (SCHEME.test(src) || src.startsWith('/') || src.startsWith('#')) return null;
  let path = src.split(/[?#]/)[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // A stray % is part of the name.
  }
  const name = path.replaceAll('\\', '/').split('/').pop()?.trim() ?? '';
  return name !== '' && isImagePath(name) ? name.toLowerCase() : null;
}

/**
 * Uploads the images dropped or picked together with a Markdown file that the file links
 * relatively (`![](images/a.png)`, `![](a.png)`, as "Export with images" writes them) or embeds
 * (`![[a.png]]`), and points those links at the uploaded files. A drop hands over files without
 * their folders, so a link finds its file by its name. Files nothing links are not uploaded; an
 * image whose upload fails keeps its link as written, counted with the first reason.
 */
export async function uploadLinkedImages(
  doc: ProseMirrorNode,
  files: readonly File[],
  upload: (file: Blob, name: string) => Promise<UploadedFile>,
): Promise<LinkedImagesResult> {
  const byName = new Map<string, File>();
  for (const file of files) {
    if (isImagePath(file.name)) byName.set(file.name.toLowerCase(), file);
  }
  const result: LinkedImagesResult = { doc, uploaded: 0, failed: 0, reason: null };
  if (byName.size === 0) return result;
  const addresses = new Map<string, string | null>();
  const addressOf = (src: string) => {
    const name = linkedName(src);
    return name === null ? null : (addresses.get(name) ?? null);
  };
  // Every link is read once to know which files to send, then again to point at them.
  const wanted = new Set<string>();
  const note = (src: string) => {
    const name = linkedName(src);
    if (name !== null && byName.has(name)) wanted.add(name);
    return null;
  };
  mapEmbedSources(mapImageSources(doc, note), note);
  for (const name of wanted) {
    const file = byName.get(name)!;
    try {
      addresses.set(name, (await upload(file, file.name)).url);
      result.uploaded++;
    } catch (error) {
      result.failed++;
      result.reason ??= error instanceof Error ? error.message : String(error);
    }
  }
  result.doc = mapEmbedSources(mapImageSources(doc, addressOf), addressOf);
  return result;
}

/** Tells the writer that `failed` images dropped with a Markdown file were not uploaded, and why. */
export function failedLinkedImagesMessage(failed: number, reason: string | null): string {
  const images = failed === 1 ? 'One image' : `${failed} images`;
  return `${images} that came with the file could not be uploaded; the links stay as written${reason ? `: ${reason}` : '.'}`;
}
