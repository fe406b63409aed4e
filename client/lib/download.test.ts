import { describe, expect, it } from 'vitest';
import { fileNameForTitle } from './download.ts';

describe('fileNameForTitle', () => {
  it('keeps an ordinary title', () => {
    expect(fileNameForTitle('Release notes 2.0', 'md')).toBe('Release notes 2.0.md');
  });

  it('replaces characters that file systems refuse', () => {
    expect(fileNameForTitle('a/b: "c"?', 'md')).toBe('a b c.md');
  });

  it('names an empty or dot-only title Untitled', () => {
    expect(fileNameForTitle('   ', 'md')).toBe('Untitled.md');
    expect(fileNameForTitle('..', 'md')).toBe('Untitled.md');
  });

  it('shortens a very long title', () => {
    expect(fileNameForTitle('x'.repeat(300), 'md')).toBe(`${'x'.repeat(120)}.md`);
  });
});
