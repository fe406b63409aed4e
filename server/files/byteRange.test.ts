import { describe, expect, it } from 'vitest';
import { parseRange } from './byteRange.ts';

describe('parseRange', () => {
  it('reads a closed range, an open one and a suffix', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
  });

  it('cuts an end past the file, and a suffix longer than the file, to the file', () => {
    expect(parseRange('bytes=50-1000', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ start: 0, end: 99 });
  });

  it('says unsatisfiable for a start at or past the end and for an empty suffix', () => {
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=200-300', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
  });

  it('serves the whole file for no header, other units, reversed, malformed or several ranges', () => {
    for (const header of [
      undefined,
      'items=0-1',
      'bytes=9-2',
      'bytes=-',
      'bytes=a-b',
      'bytes=0-1,5-6',
    ]) {
      expect(parseRange(header, 100), String(header)).toBeUndefined();
    }
  });
});
