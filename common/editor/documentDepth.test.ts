import { describe, expect, it } from 'vitest';
import { measureDepth } from './documentDepth.ts';

const text = (value: string) => ({ type: 'text', text: value });
const paragraph = (...content: object[]) => ({ type: 'paragraph', content });
const quote = (...content: object[]) => ({ type: 'blockquote', content });
const list = (...items: object[][]) => ({
  type: 'bulletList',
  content: items.map((content) => ({ type: 'listItem', content })),
});

describe('measureDepth', () => {
  it('counts a paragraph at the top as 1 level and its text as none', () => {
    expect(measureDepth({ type: 'doc', content: [paragraph(text('a'))] })).toEqual({
      depth: 1,
      topBlock: 1,
    });
  });

  it('counts a quote as 1 level and a list level as 2 (the list and its item)', () => {
    const doc = {
      type: 'doc',
      content: [paragraph(), quote(list([paragraph(text('in a list in a quote'))]))],
    };
    expect(measureDepth(doc)).toEqual({ depth: 4, topBlock: 2 });
  });

  it('does not count the editor’s chunks', () => {
    const doc = { type: 'doc', content: [{ type: 'chunk', content: [quote(paragraph())] }] };
    expect(measureDepth(doc).depth).toBe(2);
  });

  it('measures a million levels without overflowing the stack', () => {
    let node: object = paragraph();
    for (let i = 0; i < 1_000_000; i++) node = quote(node);
    expect(measureDepth({ type: 'doc', content: [node] }).depth).toBe(1_000_001);
  });
});
