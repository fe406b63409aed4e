import { describe, expect, it } from 'vitest';
import { isAllowedSrcset, srcsetUrls } from './srcset.ts';

describe('srcsetUrls', () => {
  it('splits candidates with descriptors', () => {
    expect(srcsetUrls('a.png 1x, b.png 2x,c.png')).toEqual(['a.png', 'b.png', 'c.png']);
  });

  it('keeps a comma inside a URL, as in a data URL', () => {
    expect(srcsetUrls('data:image/png;base64,AAAA 1x, b.png 2x')).toEqual([
      'data:image/png;base64,AAAA',
      'b.png',
    ]);
  });

  it('ends a candidate at trailing commas and skips descriptors in parentheses', () => {
    expect(srcsetUrls('a.png,b.png')).toEqual(['a.png,b.png']);
    expect(srcsetUrls('a.png,, b.png')).toEqual(['a.png', 'b.png']);
    expect(srcsetUrls('a.png 1x (x, y), b.png')).toEqual(['a.png', 'b.png']);
  });
});

describe('isAllowedSrcset', () => {
  it('accepts http(s), relative and image data URLs', () => {
    expect(isAllowedSrcset('https://x/a.png 1x, ./b.png 2x, data:image/png;base64,AA 3x')).toBe(
      true,
    );
  });

  it('rejects a set with any candidate that breaks the image rule', () => {
    expect(isAllowedSrcset('a.png 1x, javascript:alert(1) 2x')).toBe(false);
    expect(isAllowedSrcset('a.png 1x,data:text/html,x 2x')).toBe(false);
    expect(isAllowedSrcset('data:image/svg+xml;base64,AA 2x,a.png')).toBe(false);
  });
});
