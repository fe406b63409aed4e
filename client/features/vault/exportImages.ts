import { fileUrl } from '../../../common/api/fileUrl.ts';
import type { ZipWriter } from '../../../common/vault/zipWriter.ts';
import { isImagePath, normalVaultPath } from './vaultImages.ts';
import {
  imageFileName,
  uniqueName,
  type FetchedImage,
} from '../editor/uploads/exportWithImages.ts';

/** What writing a vault's uploaded images needs; the export passes the app's, tests fakes. */
export interface VaultImageDeps {
  /** The image at a `/files/<id>` address. */
  fetchImage(src: string): Promise<FetchedImage>;
  /** `markdown` with each image address replaced by `replace`'s answer (null keeps it). */
  relink(markdown: string, replace: (src: string) => string | null): string;
}

/** The link from a note at `notePath` to the file at `target`, both paths in the zip. */
export function relativeLink(notePath: string, target: string): string {
  const from = notePath.split('/').slice(0, -1);
  const to = target.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.slice(common).map(() => '..');
  return [...up, ...to.slice(common)].map((segment) => encodeURIComponent(segment)).join('/');
}

/**
 * Writes each uploaded image a vault's notes show into the zip once, in an `images/` folder
 * beside the first note that shows it (where "Export with images" and a vault import put it), and
 * links every note to it relatively, so the vault opens in other tools and imports back the same.
 * An image that cannot be fetched keeps its address.
 */
export function vaultImageWriter(zip: ZipWriter, deps: VaultImageDeps) {
  const prefix = fileUrl('');
  const written = new Map<string, string | null>();
  const taken = new Map<string, Set<string>>();
  /** Paths (lower case) the embeds' files were written at, so each is written once. */
  const embedded = new Set<string>();
  let missing = 0;

  async function place(src: string, notePath: string): Promise<void> {
    if (written.has(src)) return;
    written.set(src, null);
    let image: FetchedImage;
    try {
      image = await deps.fetchImage(src);
    } catch {
      missing++;
      return;
    }
    const folder = [...notePath.split('/').slice(0, -1), 'images'].join('/');
    const names = taken.get(folder.toLowerCase()) ?? new Set<string>();
    taken.set(folder.toLowerCase(), names);
    const path = `${folder}/${uniqueName(imageFileName(image.name, image.type), names)}`;
    zip.add(path, image.bytes);
    written.set(src, path);
  }

  return {
    /** The note's Markdown with its uploaded images written and linked relatively. */
    async relink(markdown: string, notePath: string): Promise<string> {
      if (!markdown.includes(prefix)) return markdown;
      const found: string[] = [];
      deps.relink(markdown, (src) => {
        if (src.startsWith(prefix)) found.push(src);
        return null;
      });
      if (found.length === 0) return markdown;
      for (const src of found) await place(src, notePath);
      return deps.relink(markdown, (src) => {
        const path = written.get(src);
        return path ? relativeLink(notePath, path) : null;
      });
    },
    /**
     * Writes the files a note's embeds show (`![[diagram.png]]`, `![[sub/chart.png]]`) at their
     * targets under the export's top folder, where Obsidian finds them again by name or by path;
     * the note's Markdown stays as it is. A path already written is not written again (the
     * first file wins), and a target that climbs out of the vault is never written.
     */
    async placeEmbeds(embeds: readonly { target: string; src: string }[], notePath: string) {
      const top = notePath.includes('/') ? notePath.slice(0, notePath.indexOf('/')) : '';
      for (const { target, src } of embeds) {
        const relative = isImagePath(target) ? normalVaultPath(target.trim()) : null;
        if (!relative || target.trim().startsWith('/') || !src.startsWith(prefix)) continue;
        const path = top ? `${top}/${relative}` : relative;
        if (embedded.has(path.toLowerCase())) continue;
        embedded.add(path.toLowerCase());
        try {
          zip.add(path, (await deps.fetchImage(src)).bytes);
        } catch {
          missing++;
        }
      }
    },
    /** Images that could not be fetched. */
    get missing() {
      return missing;
    },
  };
}
