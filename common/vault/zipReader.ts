import { inflateSync } from 'fflate';
import { crc32 } from './crc32.ts';

/** Why an archive cannot be read; `message` is written for people. */
export class VaultArchiveError extends Error {
  override name = 'VaultArchiveError';

  constructor(
    /** `not_zip`, `damaged`, `too_many_entries`, `too_large` (a whole archive) or `encrypted`. */
    readonly code: 'not_zip' | 'damaged' | 'too_many_entries' | 'too_large' | 'encrypted',
    message: string,
  ) {
    super(message);
  }
}

/** Bytes read at an offset: a File through `slice` in the browser, a buffer in tests. */
export interface RandomAccess {
  /** Total size in bytes. */
  size: number;
  /** `length` bytes from `offset` (fewer at the end). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A buffer as {@link RandomAccess}. */
export function bytesSource(bytes: Uint8Array): RandomAccess {
  return {
    size: bytes.length,
    read: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)),
  };
}

/** One file or folder of an archive, as its central directory describes it. */
export interface ZipEntry {
  /** The path as stored (UTF-8, or code page 437 for old tools that flag nothing). */
  name: string;
  /** Compressed bytes. */
  compressedSize: number;
  /** Bytes once inflated, as declared (checked when read). */
  size: number;
  /** 0 stored, 8 deflated; anything else cannot be read. */
  method: number;
  /** The declared CRC-32 of the inflated bytes. */
  crc: number;
  /** Bit 0 set: encrypted. */
  flags: number;
  /** Where the entry's local header starts. */
  headerOffset: number;
}

/** Limits of {@link listZipEntries}. */
export interface ZipListLimits {
  /** Most entries an archive may hold. */
  maxEntries: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** The end record is 22 bytes plus a comment of at most 65,535. */
const TAIL = 22 + 0xffff + 20;
/** A central directory larger than this is no vault of notes; refused before it is read. */
const MAX_DIRECTORY_BYTES = 64 * 1024 * 1024;

const damaged = (what: string) =>
  new VaultArchiveError('damaged', `This .zip file is damaged (${what}), so it cannot be read.`);

/** Code page 437's upper half: what zip tools before UTF-8 wrote names in. */
const CP437 =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/**
 * An entry's name. Flagged UTF-8 is read as UTF-8 (a broken sequence shows as U+FFFD rather
 * than failing the file); unflagged names are tried as UTF-8 first, as macOS and Linux tools
 * write it without the flag, and read as code page 437 otherwise, as the format says.
 */
export function decodeEntryName(bytes: Uint8Array, utf8Flag: boolean): string {
  if (utf8Flag) return new TextDecoder('utf-8').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    let name = '';
    for (const byte of bytes) name += byte < 0x80 ? String.fromCharCode(byte) : CP437[byte - 0x80];
    return name;
  }
}

function u64(view: DataView, at: number): number {
  const value = view.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw damaged('a size is out of range');
  return Number(value);
}

/**
 * The entries of a zip archive, read from its central directory only (nothing is inflated).
 * Refuses an archive of more than `maxEntries` entries before reading them.
 */
export async function listZipEntries(
  source: RandomAccess,
  limits: ZipListLimits,
): Promise<ZipEntry[]> {
  const tailStart = Math.max(0, source.size - TAIL);
  const tail = await source.read(tailStart, source.size - tailStart);
  const tailView = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tailView.getUint32(i, true) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new VaultArchiveError('not_zip', 'This file is not a .zip archive.');
  let count = tailView.getUint16(end + 10, true);
  let directorySize = tailView.getUint32(end + 12, true);
  let directoryOffset = tailView.getUint32(end + 16, true);
  if (end >= 20 && tailView.getUint32(end - 20, true) === ZIP64_LOCATOR) {
    const recordOffset = u64(tailView, end - 12);
    const record = await source.read(recordOffset, 56);
    const view = new DataView(record.buffer, record.byteOffset, record.byteLength);
    if (record.length < 56 || view.getUint32(0, true) !== ZIP64_EOCD) {
      throw damaged('its zip64 record is missing');
    }
    count = u64(view, 32);
    directorySize = u64(view, 40);
    directoryOffset = u64(view, 48);
  }
  if (count > limits.maxEntries) {
    throw new VaultArchiveError(
      'too_many_entries',
      `This archive holds ${count.toLocaleString('en-US')} entries; a vault may hold at most ${limits.maxEntries.toLocaleString('en-US')}.`,
    );
  }
  if (directorySize > MAX_DIRECTORY_BYTES || directoryOffset + directorySize > source.size) {
    throw damaged('its table of contents is out of range');
  }
  const directory = await source.read(directoryOffset, directorySize);
  const view = new DataView(directory.buffer, directory.byteOffset, directory.byteLength);
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > directory.length || view.getUint32(at, true) !== CENTRAL) {
      throw damaged('its table of contents ends early');
    }
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > directory.length) throw damaged('its table of contents ends early');
    let compressedSize = view.getUint32(at + 20, true);
    let size = view.getUint32(at + 24, true);
    let headerOffset = view.getUint32(at + 42, true);
    // Sizes and offsets that do not fit 32 bits are in the zip64 extra field, in this order.
    for (let e = at + 46 + nameLength; e + 4 <= at + 46 + nameLength + extraLength;) {
      const id = view.getUint16(e, true);
      const length = view.getUint16(e + 2, true);
      if (id === 1) {
        let field = e + 4;
        const take = () => {
          if (field + 8 > e + 4 + length) throw damaged('a zip64 field is short');
          const value = u64(view, field);
          field += 8;
          return value;
        };
        if (size === 0xffffffff) size = take();
        if (compressedSize === 0xffffffff) compressedSize = take();
        if (headerOffset === 0xffffffff) headerOffset = take();
      }
      e += 4 + length;
    }
    entries.push({
      name: decodeEntryName(
        directory.subarray(at + 46, at + 46 + nameLength),
        (flags & 0x800) !== 0,
      ),
      compressedSize,
      size,
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      flags,
      headerOffset,
    });
    at = next;
  }
  return entries;
}

/**
 * The inflated bytes of one entry, refused when it declares more than `maxBytes`. Inflating
 * writes into a buffer of the declared size and no larger, and the CRC must match: an entry that
 * lies about its size (a zip bomb) cannot make it allocate more, and cannot pass as whole.
 */
export async function readZipEntry(
  source: RandomAccess,
  entry: ZipEntry,
  maxBytes: number,
): Promise<Uint8Array> {
  if (entry.flags & 1) {
    throw new VaultArchiveError('encrypted', 'It is encrypted, and Inkwell cannot read it.');
  }
  if (entry.size > maxBytes) {
    throw new VaultArchiveError(
      'too_large',
      `It unpacks to ${formatBytes(entry.size)}; the limit is ${formatBytes(maxBytes)}.`,
    );
  }
  const header = await source.read(entry.headerOffset, 30);
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (header.length < 30 || view.getUint32(0, true) !== LOCAL) throw damaged('an entry is missing');
  const start = entry.headerOffset + 30 + view.getUint16(26, true) + view.getUint16(28, true);
  if (start + entry.compressedSize > source.size) throw damaged('an entry is cut short');
  const data = await source.read(start, entry.compressedSize);
  let bytes: Uint8Array;
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw damaged('an entry has the wrong size');
    bytes = data;
  } else if (entry.method === 8) {
    // One byte of room past the declared size shows an entry that inflates to more.
    const out = new Uint8Array(entry.size + 1);
    try {
      bytes = inflateSync(data, { out });
    } catch {
      throw damaged('an entry does not inflate');
    }
    if (bytes.length !== entry.size) throw damaged('an entry unpacks to another size than it says');
  } else {
    throw new VaultArchiveError('damaged', 'It is compressed in a way Inkwell cannot read.');
  }
  if (crc32(bytes) !== entry.crc) throw damaged('an entry fails its checksum');
  return bytes;
}

/** `12 KB`, `3.4 MB` */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}
