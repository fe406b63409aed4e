import { describe, expect, it } from 'vitest';
import { inlineHtmlKind, isOnlyComments } from './inlineHtmlKind.ts';

describe('inlineHtmlKind', () => {
  it('shows a lone opening or closing tag as a tag chip', () => {
    expect(inlineHtmlKind('<sup>')).toBe('tag');
    expect(inlineHtmlKind('</sup>')).toBe('tag');
    expect(inlineHtmlKind('<span class="x">')).toBe('tag');
  });

  it('renders void elements and complete elements', () => {
    expect(inlineHtmlKind('<br>')).toBe('render');
    expect(inlineHtmlKind('<br />')).toBe('render');
    expect(inlineHtmlKind('<img src="a.png" alt="a">')).toBe('render');
    expect(inlineHtmlKind('<kbd>Ctrl</kbd>')).toBe('render');
  });

  it('recognises comments', () => {
    expect(inlineHtmlKind('<!-- note -->')).toBe('comment');
  });
});

describe('isOnlyComments', () => {
  it('is true for comments and white space only', () => {
    expect(isOnlyComments('<!-- a -->\n<!-- b -->')).toBe(true);
    expect(isOnlyComments('<!-- a --><p>x</p>')).toBe(false);
    expect(isOnlyComments('')).toBe(false);
  });
});
