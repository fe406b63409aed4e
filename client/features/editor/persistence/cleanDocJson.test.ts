import { describe, expect, it } from 'vitest';
import { cleanDocJson } from './cleanDocJson.ts';

const link = (href: string) => ({ type: 'link', attrs: { href } });
const paragraph = (...content: object[]) => ({ type: 'paragraph', content });
const doc = (...content: object[]) => ({ type: 'doc', content });

describe('cleanDocJson', () => {
  it('removes a javascript: link and keeps its text', () => {
    const input = doc(
      paragraph({ type: 'text', text: 'click', marks: [link('javascript:alert(1)')] }),
    );
    expect(cleanDocJson(input)).toEqual(doc(paragraph({ type: 'text', text: 'click' })));
  });

  it('removes only the bad mark among several', () => {
    const bold = { type: 'bold' };
    const input = doc(
      paragraph({ type: 'text', text: 'x', marks: [bold, link(' JaVa\tscript:x')] }),
    );
    expect(cleanDocJson(input)).toEqual(doc(paragraph({ type: 'text', text: 'x', marks: [bold] })));
  });

  it('keeps allowed links, including relative ones and mailto', () => {
    for (const href of ['https://example.com', '/docs', 'mailto:a@b.c', '#top']) {
      const input = doc(paragraph({ type: 'text', text: 'x', marks: [link(href)] }));
      expect(cleanDocJson(input)).toEqual(input);
    }
  });

  it('drops images with a rejected source and keeps allowed ones', () => {
    const bad = { type: 'image', attrs: { src: 'javascript:alert(1)' } };
    const svg = { type: 'inlineImage', attrs: { src: 'data:image/svg+xml;base64,AAAA' } };
    const good = { type: 'image', attrs: { src: 'https://example.com/a.png' } };
    const png = { type: 'inlineImage', attrs: { src: 'data:image/png;base64,AAAA' } };
    const input = doc(bad, good, paragraph({ type: 'text', text: 'a' }, svg, png));
    expect(cleanDocJson(input)).toEqual(doc(good, paragraph({ type: 'text', text: 'a' }, png)));
  });

  it('leaves the alt text of a rejected inline image', () => {
    const badge = { type: 'inlineImage', attrs: { src: 'javascript:x', alt: 'build passing' } };
    expect(cleanDocJson(doc(paragraph(badge)))).toEqual(
      doc(paragraph({ type: 'text', text: 'build passing' })),
    );
  });

  it('drops videos that are not YouTube', () => {
    const vimeo = { type: 'youtube', attrs: { src: 'https://vimeo.com/1234567' } };
    const youtube = {
      type: 'youtube',
      attrs: { src: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
    };
    expect(cleanDocJson(doc(vimeo, youtube))).toEqual(doc(youtube));
  });

  it('leaves a valid empty paragraph where a container lost its only child', () => {
    const input = doc({
      type: 'blockquote',
      content: [{ type: 'image', attrs: { src: 'file:///x' } }],
    });
    expect(cleanDocJson(input)).toEqual(
      doc({ type: 'blockquote', content: [{ type: 'paragraph' }] }),
    );
    expect(cleanDocJson(doc({ type: 'image', attrs: { src: '' } }))).toEqual(
      doc({ type: 'paragraph' }),
    );
  });

  it('cleans nested content such as lists and tables', () => {
    const item = {
      type: 'listItem',
      content: [paragraph({ type: 'text', text: 'x', marks: [link('vbscript:x')] })],
    };
    const input = doc({ type: 'bulletList', content: [item] });
    const output = cleanDocJson(input);
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
    cleanDocJson(input);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('refuses anything that is not a document', () => {
    expect(cleanDocJson(null)).toBeNull();
    expect(cleanDocJson('doc')).toBeNull();
    expect(cleanDocJson({ type: 'paragraph' })).toBeNull();
  });
});
