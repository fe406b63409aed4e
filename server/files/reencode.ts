import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { MAX_DISPLAY_SIDE, type UploadType } from '../../common/api/files.ts';
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
  // Truncated files are refused rather than stored with a grey lower half; lesser warnings
  // (stray bytes that cameras write) are let through.
  failOn: 'truncated',
  sequentialRead: true,
} as const;

/** The bounds an upload's header is held to (`FILE_MAX_PIXELS`, `FILE_MAX_WHOLE_PIXELS`). */
export interface PixelLimits {
  /** Most pixels of any image, all frames of an animation together. */
  maxPixels: number;
  /** Most pixels of one frame of an image that is decoded whole into memory. */
  maxWholePixels: number;
}

/** An image decoded whole into memory: how to name it, and what else it could be saved as. */
interface WholeDecode {
  name: string;
  /** How many pixels of the others one of its pixels costs in memory. */
  weight: number;
  /** The same image saved so that it is read row by row, when its format has such a form. */
  rowByRow?: string;
}

/**
 * Whether libvips must hold a whole frame of this image in memory to decode it. A baseline JPEG
 * and a PNG without interlacing are read row by row and scaled as they come (a 14,000 × 14,000
 * PNG takes about 120 MB); an interlaced PNG is not (800 MB for the same), nor is a progressive
 * JPEG (libjpeg keeps every coefficient: 170 MB for 48 megapixels), a GIF or a WebP frame (4 to
 * 5 bytes a pixel). AVIF's decoder holds about 19 bytes a pixel, four times the others.
 */
function wholeDecode(type: UploadType, progressive: boolean): WholeDecode | undefined {
  switch (type) {
    case 'image/png':
      return progressive
        ? { name: 'an interlaced PNG', weight: 1, rowByRow: 'saved without interlacing' }
        : undefined;
    case 'image/jpeg':
      return progressive
        ? { name: 'a progressive JPEG', weight: 1, rowByRow: 'saved as a baseline JPEG' }
        : undefined;
    case 'image/gif':
      return { name: 'a GIF', weight: 1 };
    case 'image/webp':
      return { name: 'a WebP image', weight: 1 };
    case 'image/avif':
      return { name: 'an AVIF image', weight: 4 };
  }
}

const count = (n: number) => n.toLocaleString('en');
const millions = (n: number) => `${count(Math.floor(n / 1e5) / 10)} million`;

/**
 * Reads only the header and refuses, with a message naming the bound, an image over `limits`:
 * a PNG of a few hundred kilobytes can claim 14,000 × 14,000 pixels and take 800 MB to decode.
 * Returns the pixels sharp may then decode (its `limitInputPixels`, a second line behind this).
 */
export async function checkDimensions(
  path: string,
  type: UploadType,
  limits: PixelLimits,
): Promise<number> {
  let width: number;
  let height: number;
  let frameHeight: number;
  let frames: number;
  let progressive: boolean;
  try {
    // Only the header is read, so the pixel limit (which would hide the size) is not needed.
    const meta = await sharp(path, { animated: true, limitInputPixels: false }).metadata();
    width = meta.width;
    frames = meta.pages ?? 1;
    frameHeight = meta.pageHeight ?? meta.height;
    // Every frame of an animation is decoded; whether `height` already counts them all varies.
    height = Math.max(meta.height, frameHeight * frames);
    // Interlaced, for a PNG.
    progressive = meta.isProgressive;
  } catch (error) {
    throw InvalidImageError('The image could not be read: it is damaged or incomplete.', error);
  }
  const total = width * height;
  const whole = wholeDecode(type, progressive);
  const allowed = whole ? Math.floor(limits.maxWholePixels / whole.weight) : limits.maxPixels;
  if (whole && width * frameHeight > allowed) {
    const name = whole.name.charAt(0).toUpperCase() + whole.name.slice(1);
    const perFrame = frames > 1 ? ' a frame' : '';
    const otherwise =
      whole.rowByRow && total <= limits.maxPixels
        ? `; ${whole.rowByRow}, it may have ${millions(limits.maxPixels)}`
        : '';
    throw InvalidImageError(
      `The image is too large: ${count(width)} × ${count(frameHeight)} pixels${perFrame}. ${name} is decoded whole, so it may have at most ${millions(allowed)} pixels${perFrame}${otherwise}.`,
    );
  }
  if (total > limits.maxPixels) {
    throw InvalidImageError(
      `The image is too large: ${count(width)} × ${count(height)} pixels; at most ${millions(limits.maxPixels)} are accepted.`,
    );
  }
  // An animation's frames are decoded one after another: only their total is sharp's to check.
  return frames > 1 ? limits.maxPixels : allowed;
}

/**
 * The image as it is stored: orientation applied, scaled to at most `MAX_DISPLAY_SIDE` on its long
 * side, in its own format, without metadata (sharp writes none unless asked: EXIF with its GPS
 * position, XMP and comments all go); decoding no more than `maxInputPixels`, the answer of
 * `checkDimensions`. Animated GIF and WebP keep their frames. The original is not
 * kept: it would carry the metadata this removes, and nothing in the editor shows more than this.
 */
export function reencode(path: string, type: UploadType, maxInputPixels: number): Sharp {
  const animated = type === 'image/gif' || type === 'image/webp';
  // The second line behind `checkDimensions`: libvips refuses to decode past this many pixels.
  const image = sharp(path, { ...OPEN_OPTIONS, animated, limitInputPixels: maxInputPixels })
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
