import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { fileUrl } from '../../../../common/api/fileUrl.ts';
import { safeName } from '../../../../common/vault/vaultPaths.ts';
import { ZipWriter } from '../../../../common/vault/zipWriter.ts';
import { embeddedFiles } from '../../../../common/editor/dialects/wikilink/embeddedFiles.ts';
import { isImagePath, normalVaultPath } from '../../vault/vaultImages.ts';
import { imageSources, mapImageSources } from './imageSources.ts';

/** An uploaded image as fetched for the zip. */
export interface FetchedImage {
  bytes: Uint8Array;
  /** Its served type, `image/png`. */
  type: string;
  /** The name it was uploaded under, when the server said. */
  name: string;
}

/** What {@link exportWithImages} needs; tests pass their own. */
export interface ExportWithImagesDeps {
  /** The image at `src` (a `/files/<id>` address). */
  fetchImage(src: string): Promise<FetchedImage>;
  /** The document as Markdown. */
  serialize(doc: ProseMirrorNode): string | Promise<string>;
  /** Where the app is served, for the images that could not be fetched. */
  origin: string;
}

/** A finished export. */
export interface ImagesExport {
  fileName: string;
  chunks: Uint8Array<ArrayBuffer>[];
  /** Images written into `images/`. */
  images: number;
  /** Uploaded images that could not be fetched: linked by absolute address instead. */
  missing: number;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

/**
 * A file name for an image in `images/`: the uploaded name without its extension, kept to letters,
 * digits, `.`, `_` and `-` (a space or a bracket would need escaping in a Markdown link, which not
 * every reader undoes), with the extension of its real type.
 */
export function imageFileName(name: string, type: string): string {
  const extension = EXTENSIONS[type] ?? 'img';
  const stem = name.replace(/\.[^./\\]*$/, '').trim();
  const base = (stem ? safeName(stem, 100) : '')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return `${base || 'image'}.${extension}`;
}

/** `name` made unique among `taken` (compared without case) as `name-2.ext`, `name-3.ext`. */
export function uniqueName(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf('.');
  const [base, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let unique = name;
  for (let n = 2; taken.has(unique.toLowerCase()); n++) unique = `${base}-${n}${extension}`;
  taken.add(unique.toLowerCase());
  return unique;
}

/**
 * The document as a zip a folder-minded tool opens as it is (docs/PRODUCT.md "Markdown"):
 * `<title>.md` beside an `images/` folder holding each uploaded image once, linked relatively.
 * Images from elsewhere (https) stay as they are; an uploaded image that cannot be fetched keeps
 * an absolute address, as the plain .md export gives it, rather than failing the whole export.
 */
export async function exportWithImages(
  doc: ProseMirrorNode,
  title: string,
  deps: ExportWithImagesDeps,
): Promise<ImagesExport> {
  const prefix = fileUrl('');
  const uploaded = [...new Set(imageSources(doc).filter((src) => src.startsWith(prefix)))];
  const zip = new ZipWriter();
  const taken = new Set<string>();
  const paths = new Map<string, string>();
  let missing = 0;
  for (const src of uploaded) {
    let image: FetchedImage;
    try {
      image = await deps.fetchImage(src);
    } catch {
      missing++;
      continue;
    }
    const name = uniqueName(imageFileName(image.name, image.type), taken);
    zip.add(`images/${name}`, image.bytes);
    paths.set(src, `images/${name}`);
  }
  // The files embeds show (`![[diagram.png]]`) go at their targets beside the note, where
  // Obsidian finds them; the embeds are written as they are. None climbs out of the zip.
  const embedded = new Set<string>();
  for (const { target, src } of embeddedFiles(doc)) {
    const path = isImagePath(target) && !target.startsWith('/') ? normalVaultPath(target) : null;
    const key = path?.toLowerCase() ?? '';
    const clash = key.startsWith('images/') && taken.has(key.slice('images/'.length));
    if (!path || embedded.has(key) || clash) continue;
    embedded.add(key);
    try {
      zip.add(path, (await deps.fetchImage(src)).bytes);
    } catch {
      missing++;
    }
  }
  const linked = mapImageSources(doc, (src) =>
    src.startsWith(prefix) ? (paths.get(src) ?? `${deps.origin}${src}`) : null,
  );
  const base = safeName(title.trim() || 'Untitled', 200);
  zip.add(`${base}.md`, await deps.serialize(linked));
  return { fileName: `${base}.zip`, chunks: zip.finish(), images: paths.size, missing };
}

/** The name in a `Content-Disposition` header (`filename*` first, as it keeps any character). */
export function dispositionName(header: string | null): string {
  if (!header) return '';
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  return /filename="([^"]*)"/i.exec(header)?.[1] ?? '';
}
