/**
 * The link rule of docs/PRODUCT.md "Links and URLs", shared by every path that lets a URL into a
 * document: Markdown import, pasted HTML, the link dialog, raw HTML blocks and JSON from the
 * server.
 */

const BAD_SCHEME = /^(?:javascript|vbscript|file|data):/;
const DATA_IMAGE = /^data:image\/(?:gif|png|jpeg|webp);/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/;

/**
 * Browsers drop tabs and newlines anywhere in a URL and C0 controls and spaces around it, so
 * `java\tscript:` runs as `javascript:`. Normalise the same way before looking at the scheme.
 */
function normalise(url: string): string {
  return (
    url
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0020\u007f-\u009f]+/g, '')
      // Percent-encoded blanks too: a decoder further on must not turn `java%09script:` into a scheme.
      .replace(/%(?:[01][0-9a-f]|20|7f)/gi, '')
      .toLowerCase()
  );
}

/** True when `url` may be the target of a link: anything but a script, file or non-image data URL. */
export function isAllowedLinkUrl(url: string): boolean {
  const s = normalise(url);
  return !BAD_SCHEME.test(s) || DATA_IMAGE.test(s);
}

/** True when `url` may be an image source: http(s), a relative URL, or a gif/png/jpeg/webp data URL. */
export function isAllowedImageUrl(url: string): boolean {
  const s = normalise(url);
  if (s === '') return false;
  if (DATA_IMAGE.test(s)) return true;
  const scheme = SCHEME.exec(s);
  if (!scheme) return true;
  return scheme[0] === 'http:' || scheme[0] === 'https:';
}

const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtu.be',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);
const VIDEO_ID = /^[A-Za-z0-9_-]{6,20}$/;

/** A YouTube video as Inkwell stores it: the id and the second it starts at. */
export interface YoutubeVideo {
  /** The 6–20 character video id. */
  id: string;
  /** Start time in whole seconds; 0 for the beginning. */
  start: number;
}

/** Parses `t=`/`start=` values such as `90`, `90s` or `1m30s` into seconds. */
function parseStart(value: string | null): number {
  if (!value) return 0;
  if (/^\d+$/.test(value)) return Number(value);
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value);
  if (!m || value === '') return 0;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

/** Reads a YouTube watch, short, share or embed URL; null for any other URL. */
export function parseYoutubeUrl(raw: string): YoutubeVideo | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase();
  if (!YOUTUBE_HOSTS.has(host)) return null;
  const parts = url.pathname.split('/').filter(Boolean);
  let id: string | undefined;
  if (host === 'youtu.be') id = parts[0];
  else if (parts[0] === 'watch') id = url.searchParams.get('v') ?? undefined;
  else if (parts[0] === 'embed' || parts[0] === 'shorts' || parts[0] === 'live' || parts[0] === 'v')
    id = parts[1];
  if (!id || !VIDEO_ID.test(id)) return null;
  const start = parseStart(url.searchParams.get('start') ?? url.searchParams.get('t'));
  return { id, start };
}

/** The privacy-enhanced embed URL Inkwell renders for a video. */
export function youtubeEmbedUrl(video: YoutubeVideo): string {
  const base = `https://www.youtube-nocookie.com/embed/${video.id}`;
  return video.start > 0 ? `${base}?start=${video.start}` : base;
}
