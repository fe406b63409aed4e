import {
  isAllowedImageUrl,
  parseYoutubeUrl,
  youtubeEmbedUrl,
} from '../../../../common/editor/url.ts';
import { completeHref } from '../menus/linkUrl.ts';

/** The result of reading a dialog: attributes to insert, or why nothing can be inserted. */
export type BlockInput<T> = { ok: true; attrs: T } | { ok: false; message: string };

/** Shown when the image address field is empty. */
export const IMAGE_EMPTY_MESSAGE = 'Paste the address of an image.';

/** Shown when an image address breaks the image rule of docs/PRODUCT.md "Links and URLs". */
export const IMAGE_BLOCKED_MESSAGE =
  'This address cannot be used for an image. Images must come from an http:// or https:// address, or be a PNG, JPEG, GIF or WebP data URL.';

/** Shown when a video address is not a YouTube video. */
export const VIDEO_INVALID_MESSAGE =
  'That is not a YouTube video address. Paste a link such as https://www.youtube.com/watch?v=… or https://youtu.be/…';

/** Reads the image dialog: a bare domain gets `https://`, and only allowed sources pass. */
export function readImageInput(
  url: string,
  alt: string,
): BlockInput<{ src: string; alt: string | null }> {
  const value = url.trim();
  if (value === '') return { ok: false, message: IMAGE_EMPTY_MESSAGE };
  const src = completeHref(value);
  if (!isAllowedImageUrl(src) || /\s/.test(src))
    return { ok: false, message: IMAGE_BLOCKED_MESSAGE };
  return { ok: true, attrs: { src, alt: alt.trim() === '' ? null : alt.trim() } };
}

/**
 * Reads the video dialog: any YouTube watch, share, short or embed link. The video is stored
 * through youtube-nocookie, with its start time (`t=` or `start=`) kept apart.
 */
export function readVideoInput(url: string): BlockInput<{ src: string; start: number }> {
  const video = parseYoutubeUrl(completeHref(url.trim()));
  if (!video) return { ok: false, message: VIDEO_INVALID_MESSAGE };
  return {
    ok: true,
    attrs: { src: youtubeEmbedUrl({ id: video.id, start: 0 }), start: video.start },
  };
}
