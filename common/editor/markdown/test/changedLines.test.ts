import { describe, expect, it } from 'vitest';
import { changedLines, commonLines, normaliseLine } from './changedLines.ts';

describe('changedLines', () => {
  it('counts no change for an identical text', () => {
    expect(changedLines('a\nb\nc\n', 'a\nb\nc\n')).toEqual({ lines: 3, changed: 0 });
  });

  it('counts changed and removed source lines, not added ones', () => {
    expect(changedLines('a\nb\nc\nd', 'a\nB\nc\nnew\nnew')).toEqual({ lines: 4, changed: 2 });
  });

  it('treats a * or + bullet written as - as unchanged, in lists and quotes', () => {
    expect(changedLines('* a\n  + b\n> * c', '- a\n  - b\n> - c')).toEqual({
      lines: 3,
      changed: 0,
    });
  });

  it('does not treat emphasis or a thematic break as a bullet', () => {
    expect(normaliseLine('*em*')).toBe('*em*');
    expect(normaliseLine('* * *')).toBe('* * *');
    expect(changedLines('*em*', '_em_').changed).toBe(1);
  });
});

describe('commonLines', () => {
  it('finds the longest common subsequence of two line lists', () => {
    expect(commonLines(['a', 'b', 'c', 'd', 'e'], ['x', 'b', 'd', 'y', 'e'])).toBe(3);
    expect(commonLines([], ['a'])).toBe(0);
  });
});
