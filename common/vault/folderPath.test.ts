import { describe, expect, it } from 'vitest';
import { folderProblem, isInFolder, MAX_FOLDER_DEPTH, parentFolder } from './folderPath.ts';

describe('folderProblem', () => {
  it('accepts the top, a folder and nested folders with any printable names', () => {
    for (const folder of ['', 'Notes', 'Projects/2026/Q1', 'Café ☕/Ideen & Pläne', 'a b/ c ']) {
      expect(folderProblem(folder)).toBeNull();
    }
  });

  it('refuses paths that could climb out or are absolute', () => {
    expect(folderProblem('..')).toMatch(/“\.”/);
    expect(folderProblem('a/../../etc')).toMatch(/“\.\.”/);
    expect(folderProblem('a/./b')).toMatch(/“\.”/);
    expect(folderProblem('/etc')).toMatch(/cannot start with “\/”/);
    expect(folderProblem('a\\b')).toMatch(/not “\\”/);
  });

  it('refuses empty segments, control characters, and paths too long or too deep', () => {
    expect(folderProblem('a//b')).toMatch(/empty folder name/);
    expect(folderProblem('a/')).toMatch(/empty folder name/);
    expect(folderProblem('a\nb')).toMatch(/control characters/);
    expect(folderProblem('a\u0000')).toMatch(/control characters/);
    expect(folderProblem('x'.repeat(1001))).toMatch(/at most 1000 characters/);
    expect(folderProblem('y'.repeat(256))).toMatch(/at most 255 characters/);
    expect(folderProblem(Array(MAX_FOLDER_DEPTH).fill('d').join('/'))).toBeNull();
    expect(
      folderProblem(
        Array(MAX_FOLDER_DEPTH + 1)
          .fill('d')
          .join('/'),
      ),
    ).toMatch(/nest at most/);
  });
});

describe('folder relations', () => {
  it('finds the parent and what lies inside a folder, not a sibling sharing its prefix', () => {
    expect(parentFolder('a/b/c')).toBe('a/b');
    expect(parentFolder('a')).toBe('');
    expect(isInFolder('a/b', 'a')).toBe(true);
    expect(isInFolder('a', 'a')).toBe(true);
    expect(isInFolder('ab', 'a')).toBe(false);
    expect(isInFolder('anything', '')).toBe(true);
  });
});
