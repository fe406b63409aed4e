import { MAX_FILE_NAME_CHARS, type UploadType } from '../../common/api/files.ts';

const EXTENSION: Record<UploadType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

/**
 * The name a file is kept and served under: only the last part of a path, without control or
 * format characters (a right-to-left override can make `gpj.exe` read as `exe.jpg`), without
 * leading dots, with the extension of its real type. "image" when nothing is left.
 */
export function cleanFileName(raw: string | undefined, type: UploadType): string {
  const last = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = last
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '');
  const stem = cleaned.replace(/\.[^.]*$/, '').trim();
  const extension = EXTENSION[type];
  const room = MAX_FILE_NAME_CHARS - extension.length - 1;
  return `${Array.from(stem || 'image')
    .slice(0, room)
    .join('')}.${extension}`;
}

/**
 * `Content-Disposition: inline` with the name twice: `filename*` in UTF-8 (RFC 5987) for every
 * browser since 2012, and an ASCII `filename` with anything else replaced for older ones.
 */
export function inlineDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
