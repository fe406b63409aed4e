import { describe, expect, it } from 'vitest';
import { isMarkdownFile, titleFromFileName } from './isMarkdownFile.ts';

describe('isMarkdownFile', () => {
  it('accepts Markdown file names and the Markdown media type', () => {
    expect(isMarkdownFile({ name: 'README.md', type: '' })).toBe(true);
    expect(isMarkdownFile({ name: 'notes.MARKDOWN', type: '' })).toBe(true);
    expect(isMarkdownFile({ name: 'notes', type: 'text/markdown' })).toBe(true);
  });

  it('leaves other files to the editor', () => {
    expect(isMarkdownFile({ name: 'photo.png', type: 'image/png' })).toBe(false);
    expect(isMarkdownFile({ name: 'notes.txt', type: 'text/plain' })).toBe(false);
    expect(isMarkdownFile({ name: 'md', type: '' })).toBe(false);
  });
});

describe('titleFromFileName', () => {
  it('drops the extension', () => {
    expect(titleFromFileName('Release notes.md')).toBe('Release notes');
    expect(titleFromFileName('a.b.markdown')).toBe('a.b');
  });
});
