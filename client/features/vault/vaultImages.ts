/** Attachments uploaded as images on import: the types file storage takes (common/api/files.ts). */
const IMAGE_NAME = /\.(?:png|jpe?g|gif|webp|avif)$/i;

/** Whether a vault file is uploaded as an image (by its name; the server judges the bytes). */
export function isImagePath(path: string): boolean {
  return IMAGE_NAME.test(path);
}

/**
 * A path inside the vault with `\` read as `/`, `.` and empty segments dropped and `..` applied;
 * null when it climbs out of the vault.
 */
export function normalVaultPath(raw: string): string | null {
  const out: string[] = [];
  for (const segment of raw.replaceAll('\\', '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * For the note at `notePath`, the uploaded address of each image it links relatively
 * (`![](images/x.png)`, as "Export with images" and most editors write), or null for any other
 * address (https, data:, an absolute path, an image the vault did not hold). The link is read
 * from the note's folder first, then from the top of the vault (Obsidian writes both), and with
 * its `%20` escapes undone. `uploaded` maps a vault path (see {@link normalVaultPath}) to its
 * address; its keys are compared without case, as the file systems vaults come from often do.
 */
export function imageResolver(
  notePath: string,
  uploaded: ReadonlyMap<string, string>,
): (src: string) => string | null {
  const folder = (normalVaultPath(notePath) ?? '').split('/').slice(0, -1).join('/');
  const lookup = (path: string | null) =>
    path === null ? undefined : uploaded.get(path.toLowerCase());
  return (src) => {
    if (SCHEME.test(src) || src.startsWith('/') || src.startsWith('#')) return null;
    let path = src.split(/[?#]/)[0] ?? '';
    try {
      path = decodeURIComponent(path);
    } catch {
      // A stray % is part of the name.
    }
    if (path === '') return null;
    const near = lookup(normalVaultPath(folder ? `${folder}/${path}` : path));
    return near ?? lookup(normalVaultPath(path)) ?? null;
  };
}

/**
 * For the notes of a vault, the uploaded address of the image an embed (`![[diagram.png]]`,
 * `![[sub/diagram.png|300]]`) names, or null when the vault held no such image (or the target
 * is not an image: a PDF stays as it is). Resolved as Obsidian does: a bare name finds the file
 * of that name anywhere in the vault, the shortest path winning; a path is read from the top of
 * the vault, then from the note's folder, then as the end of a longer path (a vault zipped
 * inside its own folder), again the shortest winning. Without case, as {@link imageResolver}.
 */
export function embedResolver(
  notePath: string,
  uploaded: ReadonlyMap<string, string>,
): (target: string) => string | null {
  const folder = (normalVaultPath(notePath) ?? '').split('/').slice(0, -1).join('/');
  const shortestEndingWith = (tail: string) => {
    let best: string | undefined;
    for (const path of uploaded.keys()) {
      if (path !== tail && !path.endsWith(`/${tail}`)) continue;
      if (
        best === undefined ||
        path.length < best.length ||
        (path.length === best.length && path < best)
      )
        best = path;
    }
    return best === undefined ? null : (uploaded.get(best) ?? null);
  };
  return (raw) => {
    const target = raw.trim();
    if (!isImagePath(target) || target.startsWith('/')) return null;
    const path = normalVaultPath(target)?.toLowerCase();
    if (!path) return null;
    if (!path.includes('/')) return shortestEndingWith(path);
    const near = folder ? normalVaultPath(`${folder}/${target}`)?.toLowerCase() : undefined;
    return (
      uploaded.get(path) ?? (near ? uploaded.get(near) : undefined) ?? shortestEndingWith(path)
    );
  };
}
