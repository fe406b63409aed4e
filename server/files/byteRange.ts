import { parse } from 'range-parser';
import type { ByteRange } from './fileStorage.ts';

/**
 * The range a `Range` header asks of a file of `size` bytes (RFC 9110 §14), read by range-parser:
 * undefined means the whole file (no header, another unit, a malformed header, or several ranges,
 * which a server may answer whole), `'unsatisfiable'` a header none of whose ranges starts before
 * the end (416).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const { code, type, ranges } = parse(size, header.trim());
  // Bit 1: a range is malformed (reversed, not numbers); the header is then ignored whole.
  if (type !== 'bytes' || code & 1) return undefined;
  const [range, ...more] = ranges;
  if (!range) return code & 2 ? 'unsatisfiable' : undefined;
  // Bit 2 beside a range: others were past the end. One range or the whole file, never parts.
  if (more.length > 0 || code !== 0) return undefined;
  return { start: range.start, end: range.end };
}
