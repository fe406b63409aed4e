import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A PNG of `width` × `height` pixels in a gradient (so it does not compress to nothing). */
export function pngImage(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 7 + Math.floor(i / 97)) % 256;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** A PNG of random pixels: it hardly compresses, so it is about 3 bytes a pixel. */
export function noisePng(width: number, height: number, seed = 1): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed;
  for (let i = 0; i < pixels.length; i += 1) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = state >> 16;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** A photo-like JPEG: noise over a gradient, `width` × `height`, at `quality`. */
export function photo(width: number, height: number, quality = 92, seed = 1): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed;
  for (let i = 0; i < pixels.length; i += 1) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = (((i / 3) % width) / width) * 200 + (state % 56);
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

/** A JPEG that says it must be turned a quarter (EXIF orientation 6) and carries a GPS position. */
export async function jpegWithExif(width: number, height: number): Promise<Buffer> {
  return sharp(await photo(width, height))
    .withExif({
      IFD0: { Artist: 'Secret Artist' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/**
 * A decompression bomb: a PNG of a few hundred bytes whose header claims `width` × `height`
 * pixels (and whose data, a few compressed rows, would decode to far less).
 */
export function bombPng(width = 50_000, height = 50_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const rows = Buffer.alloc(4 * (width + 1));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Rows of each Adam7 pass: first column and row, then column and row steps. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/**
 * A complete, valid transparent RGBA PNG of `width` × `height` that is small in bytes: every
 * scanline is zeros (filter 0, transparent black), compressed by {@link zlibOfZeros} at about
 * 1,000 to 1. Interlaced (Adam7), libvips decodes it whole into memory: 14,000 × 14,000 is
 * 760 kB and takes about 800 MB to decode.
 */
export function transparentPng(width: number, height: number, interlaced: boolean): Buffer {
  let raw = 0;
  for (const [x0, y0, dx, dy] of interlaced ? ADAM7 : [[0, 0, 1, 1] as const]) {
    const columns = Math.ceil((width - x0) / dx);
    const rows = Math.ceil((height - y0) / dy);
    if (columns > 0 && rows > 0) raw += rows * (1 + columns * 4);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(6, 9); // RGBA
  header.writeUInt8(interlaced ? 1 : 0, 12);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlibOfZeros(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A zlib stream of `count` zero bytes (at least 1), written by hand in a few milliseconds where
 * zlib takes seconds for hundreds of megabytes: one dynamic-Huffman block (RFC 1951 3.2.7) whose
 * codes are literal 0 (`10`), length 258 (`0`) and end of block (`11`), with distance 1 (`0`).
 * After one literal zero, every further 258 zeros are a match of two 0 bits, so the body is
 * zero bytes; the remainder goes as literals.
 */
function zlibOfZeros(count: number): Buffer {
  const matches = Math.floor((count - 1) / 258);
  const rest = count - 1 - matches * 258;
  const out = Buffer.alloc(2 + Math.ceil((128 + 2 * (1 + matches + rest + 1)) / 8) + 4);
  out[0] = 0x78; // deflate, 32 kB window
  out[1] = 0x01; // no dictionary; (0x78 << 8 | 0x01) is a multiple of 31
  let bit = 16;
  /** Header fields go least significant bit first. */
  const field = (value: number, bits: number) => {
    for (let i = 0; i < bits; i += 1, bit += 1) {
      if ((value >> i) & 1) out[bit >> 3]! |= 1 << (bit & 7);
    }
  };
  /** Huffman codes go most significant bit first. */
  const code = (value: number, bits: number) => {
    for (let i = bits - 1; i >= 0; i -= 1, bit += 1) {
      if ((value >> i) & 1) out[bit >> 3]! |= 1 << (bit & 7);
    }
  };
  field(1, 1); // last block
  field(2, 2); // dynamic Huffman codes
  field(286 - 257, 5); // literal/length codes up to 285 (length 258)
  field(1 - 1, 5); // one distance code
  field(18 - 4, 4); // code-length code lengths given, in the order below
  const codeLengthBits: Record<number, number> = { 18: 1, 1: 2, 2: 2 };
  for (const symbol of [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1]) {
    field(codeLengthBits[symbol] ?? 0, 3);
  }
  // Code-length codes: 18 (a run of zero lengths) is `0`, length 1 is `10`, length 2 is `11`.
  const runOfZeros = (run: number) => {
    code(0, 1);
    field(run - 11, 7);
  };
  code(3, 2); // literal 0: 2 bits
  runOfZeros(138); // literals 1–255: none
  runOfZeros(117);
  code(3, 2); // end of block: 2 bits
  runOfZeros(28); // lengths 257–284: none
  code(2, 2); // length 258: 1 bit
  code(2, 2); // distance 1: 1 bit
  code(2, 2); // the first byte, a literal zero
  bit += 2 * matches; // each match is `0` then distance `0`, already zero in `out`
  for (let i = 0; i < rest; i += 1) code(2, 2);
  code(3, 2); // end of block
  const end = (bit + 7) >> 3;
  // Adler-32 of zeros: a stays 1, b adds 1 per byte.
  out.writeUInt32BE((((count % 65521) << 16) | 1) >>> 0, end);
  return out.subarray(0, end + 4);
}
