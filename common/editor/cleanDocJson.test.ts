import { describe, expect, it } from 'vitest';
import { cleanDocJson, hasHtmlNodes } from './cleanDocJson.ts';

const doc = (...content: unknown[]) => ({ type: 'doc', content });
const quoted = (node: unknown) => doc({ type: 'blockquote', content: [node] });

describe('hasHtmlNodes', () => {
  it('finds raw HTML at any depth, block or inline', () => {
    expect(hasHtmlNodes(quoted({ type: 'htmlBlock', attrs: { html: '<hr>' } }))).toBe(true);
    const inline = { type: 'paragraph', content: [{ type: 'htmlInline', attrs: { html: '<b>' } }] };
    expect(hasHtmlNodes(quoted(inline))).toBe(true);
  });

  it('is false for documents without it, and for what is not a document', () => {
    expect(
      hasHtmlNodes(quoted({ type: 'paragraph', content: [{ type: 'text', text: 'x' }] })),
    ).toBe(false);
    expect(hasHtmlNodes(null)).toBe(false);
    expect(hasHtmlNodes({ type: 'doc', content: 'htmlBlock' })).toBe(false);
  });
});

describe('cleanDocJson', () => {
  it('passes raw HTML through the sanitiser it is given', () => {
    const cleaned = cleanDocJson(doc({ type: 'htmlBlock', attrs: { html: 'a' } }), (html) =>
      html.toUpperCase(),
    );
    expect(cleaned).toEqual(doc({ type: 'htmlBlock', attrs: { html: 'A' } }));
  });
});
