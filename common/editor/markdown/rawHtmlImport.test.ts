import { describe, expect, it } from 'vitest';
import { parseMarkdown } from './parseMarkdown.ts';
import { serializeMarkdown } from './serializeMarkdown.ts';

/**
 * Imports Markdown and exports it again, as a file going through Inkwell; `text` is what the
 * document holds: its text and the source of its raw HTML.
 */
function throughInkwell(markdown: string): { text: string; exported: string } {
  const doc = parseMarkdown(markdown);
  doc.check();
  let text = '';
  doc.descendants((node) => {
    if (node.isText) text += node.text;
    else if (typeof node.attrs.html === 'string') text += node.attrs.html;
  });
  return { text, exported: serializeMarkdown(doc) };
}

describe('importing raw HTML styles', () => {
  it('keeps no style that could position a block over the app', () => {
    const { exported } = throughInkwell(
      '<div style="position:fixed; inset:0; z-index:99999; background-color: white">\n' +
        'Your session expired. <a href="https://evil.example/login">Sign in again</a>\n</div>\n',
    );
    expect(exported).toContain('Sign in again');
    expect(exported).not.toMatch(/position|inset|z-index/);
    expect(exported).toContain('style="background-color: white"');
  });

  it('keeps the colour of a coloured span as written', () => {
    const markdown = 'Some <span style="color: #d73a49">red</span> text.\n';
    expect(throughInkwell(markdown).exported).toBe(markdown);
  });
});

describe('importing attribute values that hold markup', () => {
  const hostile = '</style><script>alert(1)</script>';

  // Every word of a title stays (docs/limits.md, "No silent loss on import"); a style is no text.
  const defused = '< /style>< script>alert(1)< /script>';

  it('defuses a raw HTML title and drops a style holding markup, so the export has no <script', () => {
    for (const [markdown, word] of [
      [`<div title="${hostile}">text</div>\n`, `<div title="${defused}">text`],
      [`<p style="color: red; ${hostile}">text</p>\n`, '<p>text'],
      [`A <span title="${hostile}">word</span>.\n`, `<span title="${defused}">word`],
      [`A <a href="https://example.com" title="${hostile}">link</a>.\n`, 'link'],
      [
        `<img src="a.png" width="10" title="${hostile}">\n`,
        `<img src="a.png" width="10" title="${defused}">`,
      ],
    ]) {
      const { exported, text } = throughInkwell(markdown!);
      expect(exported, markdown).not.toMatch(/<script|<\/style/i);
      expect(text, markdown).toContain(word);
    }
  });

  it('defuses a Markdown link or image title holding markup', () => {
    const { exported } = throughInkwell(
      `[a](https://example.com "${hostile}") ![b](a.png "${hostile}")\n`,
    );
    expect(exported).not.toMatch(/<script|<\/style/i);
    expect(exported).toBe(`[a](https://example.com "${defused}") ![b](a.png "${defused}")\n`);
  });
});

describe('importing elements the sanitiser removes', () => {
  it('keeps the text and link inside an inline svg', () => {
    const { text, exported } = throughInkwell(
      'Before <svg width="10"><a href="https://example.com"><text>the link</text></a></svg> after\n',
    );
    expect(text).toContain('the link');
    expect(exported).toContain('<a href="https://example.com">the link</a>');
    expect(exported).not.toContain('<svg');
  });

  it('keeps the text inside math, form, object and select', () => {
    for (const [markdown, words] of [
      ['<math><mi>x</mi><mo>=</mo><mn>2</mn></math>\n', 'x=2'],
      ['<form action="/x">\nName: <input name="n"> <button>Send</button>\n</form>\n', 'Send'],
      ['<object data="movie.swf">\nFallback text\n</object>\n', 'Fallback text'],
      ['<select><option>First choice</option></select>\n', 'First choice'],
    ]) {
      expect(throughInkwell(markdown!).text, markdown).toContain(words);
    }
  });

  it('still removes script and style with their content', () => {
    const { text, exported } = throughInkwell(
      '<div><script>alert(1)</script><style>p{}</style>kept</div>\n',
    );
    expect(text).toContain('kept');
    expect(exported).not.toMatch(/alert|<script|<style|p\{\}/);
  });
});
