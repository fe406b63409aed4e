// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import {
  IMAGE_BLOCKED_MESSAGE,
  IMAGE_EMPTY_MESSAGE,
  VIDEO_INVALID_MESSAGE,
  readImageInput,
  readVideoInput,
} from './blockInputs.ts';
import { languageInfo } from './codeLanguages.ts';

describe('readImageInput', () => {
  it('accepts http(s), relative and image data URLs, with optional alt text', () => {
    expect(readImageInput('https://example.com/a.png', ' A cat ')).toEqual({
      ok: true,
      attrs: { src: 'https://example.com/a.png', alt: 'A cat' },
    });
    expect(readImageInput('/img/a.png', '')).toEqual({
      ok: true,
      attrs: { src: '/img/a.png', alt: null },
    });
    expect(readImageInput('data:image/webp;base64,AAAA', '').ok).toBe(true);
  });

  it('adds https:// to a bare domain', () => {
    expect(readImageInput('example.com/a.png', '')).toEqual({
      ok: true,
      attrs: { src: 'https://example.com/a.png', alt: null },
    });
  });

  it('explains an empty address and a refused one', () => {
    expect(readImageInput('  ', 'x')).toEqual({ ok: false, message: IMAGE_EMPTY_MESSAGE });
    for (const url of ['javascript:alert(1)', 'ftp://a.b/c.png', 'data:image/svg+xml,<svg/>']) {
      expect(readImageInput(url, '')).toEqual({ ok: false, message: IMAGE_BLOCKED_MESSAGE });
    }
  });
});

describe('readVideoInput', () => {
  it('stores the nocookie embed URL and keeps the start time apart', () => {
    expect(readVideoInput('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1m30s')).toEqual({
      ok: true,
      attrs: { src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', start: 90 },
    });
    expect(readVideoInput('youtu.be/dQw4w9WgXcQ')).toEqual({
      ok: true,
      attrs: { src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', start: 0 },
    });
  });

  it('refuses anything that is not a YouTube video', () => {
    for (const url of ['', 'https://vimeo.com/1234567', 'https://youtube.com/', 'javascript:x']) {
      expect(readVideoInput(url)).toEqual({ ok: false, message: VIDEO_INVALID_MESSAGE });
    }
  });
});

describe('languageInfo', () => {
  it('maps names and aliases to the grammar name and keeps other info strings', () => {
    expect(languageInfo('Python')).toBe('python');
    expect(languageInfo('ts')).toBe('typescript');
    expect(languageInfo('C++')).toBe('cpp');
    expect(languageInfo('ts title=a.ts')).toBe('ts title=a.ts');
    expect(languageInfo('  ')).toBeNull();
  });
});
