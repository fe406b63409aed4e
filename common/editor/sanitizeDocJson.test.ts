import { describe, expect, it } from 'vitest';
import { sanitizeDocJson } from './sanitizeDocJson.ts';

const link = (href: string) => ({ type: 'link', attrs: { href } });
const paragraph = (...content: object[]) => ({ type: 'paragraph', content });
const doc = (...content: object[]) => ({ type: 'doc', content });

describe('sanitizeDocJson', () => {
  it('removes a javascript: link and keeps its text', () => {
    const input = doc(
      paragraph({ type: 'text', text: 'click', marks: [link('javascript:alert(1)')] }),
    );
    expect(sanitizeDocJson(input)).toEqual(doc(paragraph({ type: 'text', text: 'click' })));
  });

  it('removes only the bad mark among several', () => {
    const bold = { type: 'bold' };
    const input = doc(
      paragraph({ type: 'text', text: 'x', marks: [bold, link(' JaVa\tscript:x')] }),
    );
    expect(sanitizeDocJson(input)).toEqual(
      doc(paragraph({ type: 'text', text: 'x', marks: [bold] })),
    );
  });

  it('keeps allowed links, including relative ones and mailto', () => {
    for (const href of ['https://example.com', '/docs', 'mailto:a@b.c', '#top']) {
      const input = doc(paragraph({ type: 'text', text: 'x', marks: [link(href)] }));
      expect(sanitizeDocJson(input)).toEqual(input);
    }
  });

  it('drops images with a rejected source and keeps allowed ones', () => {
    const bad = { type: 'image', attrs: { src: 'javascript:alert(1)' } };
    const svg = { type: 'inlineImage', attrs: { src: 'data:image/svg+xml;base64,AAAA' } };
    const good = { type: 'image', attrs: { src: 'https://example.com/a.png' } };
    const png = { type: 'inlineImage', attrs: { src: 'data:image/png;base64,AAAA' } };
    const input = doc(bad, good, paragraph({ type: 'text', text: 'a' }, svg, png));
    expect(sanitizeDocJson(input)).toEqual(doc(good, paragraph({ type: 'text', text: 'a' }, png)));
  });

  it('leaves the alt text of a rejected inline image', () => {
    const badge = { type: 'inlineImage', attrs: { src: 'javascript:x', alt: 'build passing' } };
    expect(sanitizeDocJson(doc(paragraph(badge)))).toEqual(
      doc(paragraph({ type: 'text', text: 'build passing' })),
    );
  });

  it('drops videos that are not YouTube', () => {
    const vimeo = { type: 'youtube', attrs: { src: 'https://vimeo.com/1234567' } };
    const youtube = {
      type: 'youtube',
      attrs: { src: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
    };
    expect(sanitizeDocJson(doc(vimeo, youtube))).toEqual(doc(youtube));
  });

  it('leaves a valid empty paragraph where a container lost its only child', () => {
    const input = doc({
      type: 'blockquote',
      content: [{ type: 'image', attrs: { src: 'file:///x' } }],
    });
    expect(sanitizeDocJson(input)).toEqual(
      doc({ type: 'blockquote', content: [{ type: 'paragraph' }] }),
    );
    expect(sanitizeDocJson(doc({ type: 'image', attrs: { src: '' } }))).toEqual(
      doc({ type: 'paragraph' }),
    );
  });

  it('cleans nested content such as lists and tables', () => {
    const item = {
      type: 'listItem',
      content: [paragraph({ type: 'text', text: 'x', marks: [link('vbscript:x')] })],
    };
    const input = doc({ type: 'bulletList', content: [item] });
    const output = sanitizeDocJson(input);
    expect(output).toEqual(
      doc({
        type: 'bulletList',
        content: [{ type: 'listItem', content: [paragraph({ type: 'text', text: 'x' })] }],
      }),
    );
  });

  it('does not change its input', () => {
    const input = doc(paragraph({ type: 'text', text: 'x', marks: [link('javascript:x')] }));
    const before = JSON.stringify(input);
    sanitizeDocJson(input);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('shares what breaks no rule instead of copying it', () => {
    const clean = paragraph({ type: 'text', text: 'fine', marks: [link('https://example.com')] });
    const dirty = paragraph({ type: 'text', text: 'x', marks: [link('javascript:x')] });
    const untouched = doc(clean);
    expect(sanitizeDocJson(untouched)).toBe(untouched);
    const input = doc(clean, dirty);
    const output = sanitizeDocJson(input)!;
    expect(output).not.toBe(input);
    expect(output.content![0]).toBe(clean);
    expect(output.content![1]).toEqual(paragraph({ type: 'text', text: 'x' }));
  });

  it('refuses anything that is not a document', () => {
    expect(sanitizeDocJson(null)).toBeNull();
    expect(sanitizeDocJson('doc')).toBeNull();
    expect(sanitizeDocJson({ type: 'paragraph' })).toBeNull();
  });

  it('sanitises raw HTML again and drops what sanitising empties', () => {
    const block = { type: 'htmlBlock', attrs: { html: '<div onclick="x()">hi</div>' } };
    const script = { type: 'htmlBlock', attrs: { html: '<script>alert(1)</script>' } };
    const inline = { type: 'htmlInline', attrs: { html: '<img src=x onerror=alert(1)>' } };
    expect(sanitizeDocJson(doc(block, script, paragraph(inline)))).toEqual(
      doc(
        { type: 'htmlBlock', attrs: { html: '<div>hi</div>' } },
        paragraph({ type: 'htmlInline', attrs: { html: '<img src=x>' } }),
      ),
    );
  });

  it('is null for JSON that is not a document', () => {
    for (const value of [null, 3, 'doc', [], { type: 'paragraph' }]) {
      expect(sanitizeDocJson(value)).toBeNull();
    }
  });
});

describe('sanitizeDocJson on deeply nested input', () => {
  /** `inner` inside `levels` quotes, built without recursion. */
  const quotes = (levels: number, inner: object = { type: 'paragraph' }) => {
    let node = inner;
    for (let i = 0; i < levels; i++) node = { type: 'blockquote', content: [node] };
    return node;
  };

  it('refuses 100,000 levels with DocumentTooDeepError instead of overflowing the stack', () => {
    expect(() => sanitizeDocJson(doc(quotes(100_000)))).toThrow(
      expect.objectContaining({
        name: 'DocumentTooDeepError',
        depth: 100_001,
        message: expect.stringMatching(/^The document nests 100,001 levels deep/),
      }),
    );
  });

  it('refuses nodes nested inside text, which would otherwise add no level', () => {
    let node: object = { type: 'text', text: 'x' };
    for (let i = 0; i < 100_000; i++) node = { type: 'text', text: 'x', content: [node] };
    expect(() => sanitizeDocJson(doc(paragraph(node)))).toThrow(/levels deep/);
  });

  it('refuses one level past the limit, saying how deep and in which top-level block', () => {
    const input = doc(paragraph(), quotes(100, paragraph({ type: 'text', text: 'deep' })));
    expect(() => sanitizeDocJson(input)).toThrow(
      'The document nests 101 levels deep in its block 2 from the top; ' +
        'Inkwell accepts at most 100 levels of blocks inside one another.',
    );
  });

  it('keeps a document exactly at the limit as it is', () => {
    const input = doc(quotes(99, paragraph({ type: 'text', text: 'deep' })));
    expect(sanitizeDocJson(input)).toBe(input);
  });
});

describe('sanitizeDocJson on styles and attribute values', () => {
  const text = (marks: object[]) => ({ type: 'text', text: 'x', marks });

  it('removes styles outside the allow-list from raw HTML', () => {
    const input = doc({
      type: 'htmlBlock',
      attrs: { html: '<div style="position:fixed;inset:0;z-index:99999">Sign in again</div>' },
    });
    expect(sanitizeDocJson(input)).toEqual(
      doc({ type: 'htmlBlock', attrs: { html: '<div>Sign in again</div>' } }),
    );
  });

  it('clears colours that could carry more than a colour', () => {
    const input = doc(
      paragraph(
        text([{ type: 'textStyle', attrs: { color: 'red; position: fixed' } }]),
        text([{ type: 'highlight', attrs: { color: 'var(--x)' } }]),
        text([{ type: 'textStyle', attrs: { color: '#d73a49' } }]),
      ),
    );
    expect(sanitizeDocJson(input)).toEqual(
      doc(
        paragraph(
          text([{ type: 'textStyle', attrs: { color: null } }]),
          text([{ type: 'highlight', attrs: { color: null } }]),
          text([{ type: 'textStyle', attrs: { color: '#d73a49' } }]),
        ),
      ),
    );
  });

  it('clears an alignment or image size that is not one the editor writes', () => {
    const input = doc(
      { type: 'paragraph', attrs: { textAlign: 'left; position: fixed' } },
      { type: 'image', attrs: { src: 'a.png', width: '100%;position:fixed', height: 200 } },
    );
    expect(sanitizeDocJson(input)).toEqual(
      doc(
        { type: 'paragraph', attrs: { textAlign: null } },
        { type: 'image', attrs: { src: 'a.png', width: null, height: 200 } },
      ),
    );
  });

  it('clears a link or image title that holds markup', () => {
    const input = doc(
      paragraph(
        text([{ type: 'link', attrs: { href: '/a', title: '</style><script>alert(1)</script>' } }]),
      ),
      { type: 'image', attrs: { src: 'a.png', title: 'a <b>', alt: 'a < b' } },
    );
    expect(sanitizeDocJson(input)).toEqual(
      doc(paragraph(text([{ type: 'link', attrs: { href: '/a', title: null } }])), {
        type: 'image',
        attrs: { src: 'a.png', title: null, alt: 'a < b' },
      }),
    );
  });
});
