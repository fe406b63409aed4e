import { deflateSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32.ts';
import {
  bytesSource,
  decodeEntryName,
  listZipEntries,
  readZipEntry,
  VaultArchiveError,
  type ZipEntry,
} from './zipReader.ts';
import { joinChunks, ZipWriter } from './zipWriter.ts';

const LIMITS = { maxEntries: 10_000 };
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const encode = (value: string) => new TextEncoder().encode(value);

async function readAll(zip: Uint8Array, max = 1024 * 1024) {
  const source = bytesSource(zip);
  const entries = await listZipEntries(source, LIMITS);
  const files: Record<string, string> = {};
  for (const entry of entries) files[entry.name] = text(await readZipEntry(source, entry, max));
  return files;
}

/** A zip of one stored entry, written by hand, whose header fields a test may falsify. */
function handMadeZip(options: {
  nameBytes: Uint8Array;
  data: Uint8Array;
  method?: number;
  size?: number;
  crc?: number;
  flags?: number;
}): Uint8Array {
  const { nameBytes, data } = options;
  const method = options.method ?? 0;
  const size = options.size ?? data.length;
  const crc = options.crc ?? crc32(data);
  const flags = options.flags ?? 0;
  const local = new Uint8Array(30 + nameBytes.length);
  const lv = new DataView(local.buffer);
  lv.setUint32(0, 0x04034b50, true);
  lv.setUint16(6, flags, true);
  lv.setUint16(8, method, true);
  lv.setUint32(14, crc, true);
  lv.setUint32(18, data.length, true);
  lv.setUint32(22, size, true);
  lv.setUint16(26, nameBytes.length, true);
  local.set(nameBytes, 30);
  const central = new Uint8Array(46 + nameBytes.length);
  const cv = new DataView(central.buffer);
  cv.setUint32(0, 0x02014b50, true);
  cv.setUint16(8, flags, true);
  cv.setUint16(10, method, true);
  cv.setUint32(16, crc, true);
  cv.setUint32(20, data.length, true);
  cv.setUint32(24, size, true);
  cv.setUint16(28, nameBytes.length, true);
  cv.setUint32(42, 0, true);
  central.set(nameBytes, 46);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, 1, true);
  ev.setUint16(10, 1, true);
  ev.setUint32(12, central.length, true);
  ev.setUint32(16, local.length + data.length, true);
  return joinChunks([local, data, central, end]);
}

describe('ZipWriter and the zip reader', () => {
  it('write files in folders that read back byte for byte, Unicode names included', async () => {
    const writer = new ZipWriter();
    writer.add('Projects/2026/Plan.md', '# Plan\n\n- one\n- two\n');
    writer.add('Café ☕/Notizen.md', 'Grüße\n');
    writer.add('Empty.md', '');
    const files = await readAll(joinChunks(writer.finish()));
    expect(files).toEqual({
      'Projects/2026/Plan.md': '# Plan\n\n- one\n- two\n',
      'Café ☕/Notizen.md': 'Grüße\n',
      'Empty.md': '',
    });
  });

  it('reads archives made by another writer, stored and deflated', async () => {
    const zip = zipSync({
      'a.md': [encode('stored'), { level: 0 }],
      'dir/b.md': [encode('deflated '.repeat(100)), { level: 9 }],
    });
    expect(await readAll(zip)).toEqual({ 'a.md': 'stored', 'dir/b.md': 'deflated '.repeat(100) });
  });

  it('refuses a file that is not a zip', async () => {
    await expect(listZipEntries(bytesSource(encode('# just markdown')), LIMITS)).rejects.toThrow(
      'This file is not a .zip archive.',
    );
  });

  it('refuses an archive of more entries than the limit before reading them', async () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 10_001; i++) files[`n${i}.md`] = new Uint8Array(0);
    const zip = zipSync(files, { level: 0 });
    await expect(listZipEntries(bytesSource(zip), LIMITS)).rejects.toMatchObject({
      code: 'too_many_entries',
      message: 'This archive holds 10,001 entries; a vault may hold at most 10,000.',
    });
    const entries = await listZipEntries(bytesSource(zip), { maxEntries: 10_001 });
    expect(entries).toHaveLength(10_001);
  });

  it('refuses an entry that declares more than the limit, without inflating it', async () => {
    // 12 MB of zeros deflate to about 12 KB: a small zip bomb.
    const zip = zipSync({ 'bomb.md': new Uint8Array(12 * 1024 * 1024) }, { level: 1 });
    const source = bytesSource(zip);
    const [entry] = await listZipEntries(source, LIMITS);
    expect(zip.length).toBeLessThan(200_000);
    await expect(readZipEntry(source, entry!, 10 * 1024 * 1024)).rejects.toMatchObject({
      code: 'too_large',
      message: 'It unpacks to 12.0 MB; the limit is 10.0 MB.',
    });
  });

  it('refuses an entry that lies about its size, allocating no more than it declared', async () => {
    const bomb = deflateSync(new Uint8Array(8 * 1024 * 1024));
    const zip = handMadeZip({
      nameBytes: encode('liar.md'),
      data: bomb,
      method: 8,
      size: 100,
      crc: crc32(new Uint8Array(100)),
    });
    const source = bytesSource(zip);
    const [entry] = await listZipEntries(source, LIMITS);
    expect(entry!.size).toBe(100);
    await expect(readZipEntry(source, entry!, 1024)).rejects.toThrow(
      'This .zip file is damaged (an entry unpacks to another size than it says), so it cannot be read.',
    );
  });

  it('refuses an entry whose checksum does not match and an encrypted one', async () => {
    const data = encode('hello');
    const bad = bytesSource(handMadeZip({ nameBytes: encode('a.md'), data, crc: 1234 }));
    const [entry] = await listZipEntries(bad, LIMITS);
    await expect(readZipEntry(bad, entry!, 1024)).rejects.toThrow(/fails its checksum/);
    const locked = bytesSource(handMadeZip({ nameBytes: encode('a.md'), data, flags: 1 }));
    const [lockedEntry] = await listZipEntries(locked, LIMITS);
    await expect(readZipEntry(locked, lockedEntry!, 1024)).rejects.toMatchObject({
      code: 'encrypted',
    });
  });

  it('refuses a truncated archive with a clear error instead of reading past its end', async () => {
    const writer = new ZipWriter();
    writer.add('a.md', 'x'.repeat(1000));
    const zip = joinChunks(writer.finish());
    const cut = bytesSource(zip.subarray(0, zip.length - 10));
    await expect(listZipEntries(cut, LIMITS)).rejects.toBeInstanceOf(VaultArchiveError);
    const entries = await listZipEntries(bytesSource(zip), LIMITS);
    const moved: ZipEntry = { ...entries[0]!, compressedSize: zip.length * 2 };
    await expect(readZipEntry(bytesSource(zip), moved, 1e6)).rejects.toThrow(/cut short/);
  });

  it('reads names that are not UTF-8 as code page 437, and unflagged UTF-8 as UTF-8', async () => {
    // "Übung.md" in code page 437 (0x9A is Ü) and in Windows-1252 (0xDC): neither is UTF-8.
    expect(decodeEntryName(new Uint8Array([0x9a, 0x62, 0x75, 0x6e, 0x67]), false)).toBe('Übung');
    expect(decodeEntryName(encode('Übung'), false)).toBe('Übung');
    expect(decodeEntryName(new Uint8Array([0xdc, 0x62]), true)).toBe('\uFFFDb');
    const zip = handMadeZip({
      nameBytes: new Uint8Array([0x9a, 0x2e, 0x6d, 0x64]),
      data: encode('x'),
    });
    expect(await readAll(zip)).toEqual({ 'Ü.md': 'x' });
  });
});
