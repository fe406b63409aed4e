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
