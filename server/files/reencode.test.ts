import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadType } from '../../common/api/files.ts';
import { transparentPng } from '../test/images.ts';
import { checkDimensions, type PixelLimits } from './reencode.ts';

// Small bounds, so that the images are small: 1 million pixels in all, 400,000 decoded whole.
const LIMITS: PixelLimits = { maxPixels: 1_000_000, maxWholePixels: 400_000 };

let dir: string;
let written = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inkwell-reencode-test-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What `checkDimensions` says of `bytes` as `type`: the pixels sharp may decode, or the refusal. */
async function check(bytes: Buffer, type: UploadType): Promise<number | string> {
  const path = join(dir, `image-${(written += 1)}`);
  await writeFile(path, bytes);
  return checkDimensions(path, type, LIMITS).catch((error: unknown) =>
    error instanceof Error ? error.message : String(error),
  );
}

const grey = (width: number, height: number, level = 128) =>
  sharp({ create: { width, height, channels: 3, background: { r: level, g: level, b: level } } });

/** An animated GIF of `frames` frames of `width` × `height` (each its own grey: GIF encoders merge equal frames). */
async function animatedGif(width: number, height: number, frames: number): Promise<Buffer> {
  const images = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      grey(width, height, i * 40)
        .png()
        .toBuffer(),
    ),
  );
  return sharp(images, { join: { animated: true } })
    .gif()
    .toBuffer();
}

describe('checking the pixels an upload declares, before decoding it', () => {
  it('holds an interlaced PNG to the lower bound of images decoded whole, and says how to fit', async () => {
    expect(await check(transparentPng(800, 800, true), 'image/png')).toBe(
      'The image is too large: 800 × 800 pixels. An interlaced PNG is decoded whole, so it may have at most 0.4 million pixels; saved without interlacing, it may have 1 million.',
    );
    expect(await check(transparentPng(800, 800, false), 'image/png')).toBe(1_000_000);
    expect(await check(transparentPng(600, 600, true), 'image/png')).toBe(400_000);
  });

  it('names only the bound of images decoded whole when the image is over both', async () => {
    expect(await check(transparentPng(1200, 1200, true), 'image/png')).toBe(
      'The image is too large: 1,200 × 1,200 pixels. An interlaced PNG is decoded whole, so it may have at most 0.4 million pixels.',
    );
    expect(await check(transparentPng(1200, 1200, false), 'image/png')).toBe(
      'The image is too large: 1,200 × 1,200 pixels; at most 1 million are accepted.',
    );
  });

  it('holds a progressive JPEG to the lower bound and a baseline JPEG to the higher', async () => {
    const image = grey(900, 800);
    expect(
      await check(await image.clone().jpeg({ progressive: true }).toBuffer(), 'image/jpeg'),
    ).toBe(
      'The image is too large: 900 × 800 pixels. A progressive JPEG is decoded whole, so it may have at most 0.4 million pixels; saved as a baseline JPEG, it may have 1 million.',
    );
    expect(await check(await image.clone().jpeg().toBuffer(), 'image/jpeg')).toBe(1_000_000);
  });

  it('decodes WebP whole, and counts an AVIF pixel four times', async () => {
    expect(await check(await grey(700, 700).webp().toBuffer(), 'image/webp')).toBe(
      'The image is too large: 700 × 700 pixels. A WebP image is decoded whole, so it may have at most 0.4 million pixels.',
    );
    expect(await check(await grey(400, 300).avif({ effort: 0 }).toBuffer(), 'image/avif')).toBe(
      'The image is too large: 400 × 300 pixels. An AVIF image is decoded whole, so it may have at most 0.1 million pixels.',
    );
    expect(await check(await grey(300, 300).avif({ effort: 0 }).toBuffer(), 'image/avif')).toBe(
      100_000,
    );
  });

  it('holds each frame of an animation to the lower bound and all of them to the higher', async () => {
    expect(await check(await animatedGif(500, 500, 3), 'image/gif')).toBe(1_000_000);
    expect(await check(await animatedGif(700, 700, 2), 'image/gif')).toBe(
      'The image is too large: 700 × 700 pixels a frame. A GIF is decoded whole, so it may have at most 0.4 million pixels a frame.',
    );
    expect(await check(await animatedGif(500, 500, 5), 'image/gif')).toBe(
      'The image is too large: 500 × 2,500 pixels; at most 1 million are accepted.',
    );
  });

  it('refuses a file whose header cannot be read', async () => {
    const png = transparentPng(10, 10, false);
    expect(await check(png.subarray(0, 20), 'image/png')).toBe(
      'The image could not be read: it is damaged or incomplete.',
    );
  });
});
