import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { UploadedFile } from '../../../../common/api/files.ts';
import { uploadFile } from '../../../lib/uploadFile.ts';
import { imageSources, mapImageSources } from './imageSources.ts';

/** A `data:` image address with base64 content, as Markdown files embed screenshots. */
const DATA_IMAGE = /^data:(image\/[a-z0-9.+-]+);base64,([a-z0-9+/=\s]+)$/i;

/** The bytes of a base64 `data:image/…` address, or null for any other address. */
export function dataImageBlob(src: string): Blob | null {
  const match = DATA_IMAGE.exec(src);
  if (!match) return null;
  try {
    const binary = atob((match[2] ?? '').replace(/\s+/g, ''));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new Blob([bytes], { type: match[1] });
  } catch {
    return null;
  }
}

/** What {@link uploadInlineImages} did. */
export interface InlineImagesResult {
  /** The document with each uploaded image pointing at its file. */
  doc: ProseMirrorNode;
  /** Images left embedded because their upload failed, and the first reason. */
  kept: number;
  reason: string | null;
}

/**
 * Uploads the images a Markdown file embeds as `data:` addresses and points them at the
 * uploaded files, so that documents stay small (an image embedded twice is uploaded once). An
 * image whose upload fails keeps its `data:` address: it is the writer's content, and nothing is
 * lost; the caller says how many stayed. By default the server's limit on uploads a minute is
 * waited out, as a file may embed more images than it allows.
 */
export async function uploadInlineImages(
  doc: ProseMirrorNode,
  upload: (file: Blob, name: string) => Promise<UploadedFile> = (file, name) =>
    uploadFile(file, name, { waitIfLimited: true }),
): Promise<InlineImagesResult> {
  const embedded = imageSources(doc).filter((src) => src.startsWith('data:'));
  if (embedded.length === 0) return { doc, kept: 0, reason: null };
  const uploads = new Map<string, Promise<string | Error>>();
  for (const src of embedded) {
    if (uploads.has(src)) continue;
    const blob = dataImageBlob(src);
    const name = `image.${blob?.type.split('/')[1] ?? 'png'}`;
    uploads.set(
      src,
      blob
        ? upload(blob, name).then(
            (file) => file.url,
            (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
          )
        : Promise.resolve(new Error('The embedded image could not be read.')),
    );
  }
  const urls = new Map<string, string | Error>();
  for (const [src, pending] of uploads) urls.set(src, await pending);
  let kept = 0;
  let reason: string | null = null;
  const uploaded = mapImageSources(doc, (src) => {
    const url = urls.get(src);
    if (url === undefined || typeof url === 'string') return url ?? null;
    kept++;
    reason ??= url.message;
    return null;
  });
  return { doc: uploaded, kept, reason };
}

/** Tells the writer that `kept` embedded images could not be uploaded and why. */
export function keptImagesMessage(kept: number, reason: string | null): string {
  const images = kept === 1 ? 'One embedded image stays' : `${kept} embedded images stay`;
  return `${images} in the document as it came, not uploaded${reason ? `: ${reason}` : '.'}`;
}
