import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { MAX_DISPLAY_SIDE, MAX_IMAGE_PIXELS, type UploadType } from '../../common/api/files.ts';
import { InvalidImageError } from '../errors.ts';

// Every upload is a different file, read once: libvips' operation cache would only hold on to
// decoded images that never come back.
sharp.cache(false);

/** The stored image's size in pixels (one frame of an animation). */
export interface ImageSize {
  width: number;
  height: number;
}

const OPEN_OPTIONS = {
  // A second line behind `checkDimensions`: libvips refuses to decode past this many pixels.
  limitInputPixels: MAX_IMAGE_PIXELS,
  // Truncated files are refused rather than stored with a grey lower half; lesser warnings
  // (stray bytes that cameras write) are let through.
  failOn: 'truncated',
  sequentialRead: true,
} as const;

/**
 * Reads only the header and refuses an image that claims more than `MAX_IMAGE_PIXELS` (all frames
 * together): a 50,000 × 50,000 PNG of a few kilobytes would need 10 GB once decoded.
 */
export async function checkDimensions(path: string): Promise<void> {
  let width: number;
  let height: number;
  try {
    // Only the header is read, so the pixel limit (which would hide the size) is not needed.
    const meta = await sharp(path, { animated: true, limitInputPixels: false }).metadata();
    width = meta.width;
    // Every frame of an animation is decoded; whether `height` already counts them all varies.
    height = Math.max(meta.height, (meta.pageHeight ?? meta.height) * (meta.pages ?? 1));
  } catch (error) {
    throw InvalidImageError('The image could not be read: it is damaged or incomplete.', error);
  }
  if (width * height > MAX_IMAGE_PIXELS) {
    throw InvalidImageError(
      `The image is too large: ${width.toLocaleString('en')} × ${height.toLocaleString('en')} pixels; at most ${(MAX_IMAGE_PIXELS / 1e6).toLocaleString('en')} million are accepted.`,
    );
  }
}

/**
 * The image as it is stored: orientation applied, scaled to at most `MAX_DISPLAY_SIDE` on its long
 * side, in its own format, without metadata (sharp writes none unless asked: EXIF with its GPS
 * position, XMP and comments all go). Animated GIF and WebP keep their frames. The original is not
 * kept: it would carry the metadata this removes, and nothing in the editor shows more than this.
 */
export function reencode(path: string, type: UploadType): Sharp {
  const animated = type === 'image/gif' || type === 'image/webp';
  const image = sharp(path, { ...OPEN_OPTIONS, animated })
    .autoOrient()
    .resize({
      width: MAX_DISPLAY_SIDE,
      height: MAX_DISPLAY_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    });
  switch (type) {
    case 'image/png':
      return image.png();
    case 'image/jpeg':
      return image.jpeg({ quality: 85 });
    case 'image/gif':
      return image.gif();
    case 'image/webp':
      return image.webp({ quality: 85 });
    case 'image/avif':
      // AVIF's default effort takes seconds for one photo; 2 is within a few percent of its size.
      return image.avif({ quality: 60, effort: 2 });
  }
}

/** The size sharp reports for what it wrote, per frame. */
export function sizeOf(info: OutputInfo): ImageSize {
  return { width: info.width, height: info.pageHeight ?? info.height };
}
