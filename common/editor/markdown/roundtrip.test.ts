import { describe, expect, it } from 'vitest';
import type { Node as PMNode } from '@tiptap/pm/model';
import { inkwellSchema } from '../extensions.ts';
import { parseMarkdown } from './parseMarkdown.ts';
import { serializeMarkdown } from './serializeMarkdown.ts';
import { reference } from './test/fidelity.ts';

/** Node and mark names used anywhere in a document. */
function kinds(doc: PMNode): Set<string> {
  const names = new Set<string>();
  doc.descendants((node) => {
    names.add(node.type.name);
    for (const mark of node.marks) names.add(mark.type.name);
  });
  return names;
}

function expectStable(markdown: string): PMNode {
  const doc = parseMarkdown(markdown);
  doc.check();
  const exported = serializeMarkdown(doc);
  const again = parseMarkdown(exported);
  expect(again.toJSON(), `export was:\n${exported}`).toEqual(doc.toJSON());
  expect(serializeMarkdown(again)).toBe(exported);
  return doc;
}

/**
 * One Markdown sample per content kind of docs/PRODUCT.md "Content", and the node or mark it must
 * produce.
 */
const samples: Array<[string, string, string]> = [
  ['paragraph', 'Just a paragraph of text.\n', 'paragraph'],
  [
    'heading 1–6',
    '# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six\n',
    'heading',
  ],
  ['blockquote', '> quoted\n>\n> > nested\n', 'blockquote'],
  ['bullet list, nested', '- a\n- b\n  - c\n  - d\n- e\n', 'bulletList'],
  ['ordered list with start', '3. three\n4. four\n   1. nested\n', 'orderedList'],
  ['loose list', '- a\n\n- b\n', 'bulletList'],
  ['task list, nested', '- [ ] todo\n- [x] done\n  - [ ] sub\n', 'taskItem'],
  ['code block with language', '```ts\nconst a = 1;\n\n```\n', 'codeBlock'],
  [
    'code block with info string and fences inside',
    '````md title=x\n```\ninner\n```\n````\n',
    'codeBlock',
  ],
  ['image', '![Alt text](https://example.com/a.png "Title")\n', 'image'],
  ['base64 image', '![dot](data:image/png;base64,iVBORw0KGgo=)\n', 'image'],
  ['sized image', '<img src="a.png" alt="Logo" width="120">\n', 'image'],
  [
    'inline image in a link (badge)',
    '[![CI](https://img.shields.io/ci.svg)](https://ci.example.com) text\n',
    'inlineImage',
  ],
  [
    'youtube',
    '<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=30" width="640" height="360" allowfullscreen></iframe>\n',
    'youtube',
  ],
  ['link with title', 'See [the docs](https://example.com/docs "Docs") now.\n', 'link'],
  [
    'link with target, rel and class',
    'A <a href="https://x.io" target="_blank" rel="noopener" class="ext">link</a>.\n',
    'link',
  ],
  [
    'text alignment',
    '<div align="center">\n\n# Centred\n\nAnd a paragraph.\n\n</div>\n',
    'paragraph',
  ],
  ['text colour', 'Some <span style="color: #dc2626">red</span> text.\n', 'textStyle'],
  [
    'highlight',
    'Some <mark style="background-color: #fef08a">marked</mark> and <mark>plain</mark>.\n',
    'highlight',
  ],
  ['bold', 'Some **bold** text.\n', 'bold'],
  ['italic', 'Some *italic* text.\n', 'italic'],
  ['underline', 'Some <u>underlined</u> text.\n', 'underline'],
  ['strike', 'Some ~~struck~~ text.\n', 'strike'],
  ['inline code', 'Run `npm ci` then ``a ` b``.\n', 'code'],
  ['horizontal rule', 'above\n\n---\n\nbelow\n', 'horizontalRule'],
  ['hard break', 'line one\\\nline two\n', 'hardBreak'],
  ['soft line breaks', 'A hard-wrapped\nparagraph that\ncontinues.\n', 'softBreak'],
  [
    'table with alignment',
    '| a | b | c |\n| :--- | :---: | ---: |\n| 1 | **2** | `3 \\| 4` |\n',
    'table',
  ],
  ['html block', '<details>\n<summary>More</summary>\n\nHidden text.\n\n</details>\n', 'htmlBlock'],
  ['html comment', '<!-- keep me -->\n\nText.\n', 'htmlBlock'],
  ['inline html', 'Press <kbd>Ctrl</kbd> + <kbd>C</kbd> and x<sup>2</sup>.\n', 'htmlInline'],
];

describe('every content kind round-trips md → doc → md → doc to the same doc', () => {
  it.each(samples)('%s', (_name, markdown, kind) => {
    const doc = expectStable(markdown);
    expect(kinds(doc)).toContain(kind);
  });

  it('writes marks that touch punctuation so they read back', () => {
    for (const markdown of [
      '**foo.**bar and *(x)*y\n',
      'a<strong>.</strong>b\n',
      '***both*** and **bold *nested* bold**\n',
      '[**bold link**](https://a.b) and **[link in bold](https://a.b)**\n',
      'snake_case_word and 2*3*4 and a~b\n',
      '\\# not a heading, 1\\. not a list, \\- not a bullet\n',
      '&amp;copy; stays text, &copy; is ©\n',
    ]) {
      expectStable(markdown);
    }
  });

  it('gives back a hard-wrapped file line for line, in lists and quotes too', () => {
    const markdown =
      'A paragraph wrapped\nat forty columns, with **bold\nacross** the break.\n\n- an item\n  that wraps\n\n> a quote\n> that wraps\n';
    const doc = expectStable(markdown);
    expect(serializeMarkdown(doc)).toBe(markdown);
    // The break reads as a space, as in any Markdown viewer.
    expect(doc.textBetween(0, doc.content.size, '\n', ' ')).toContain('wrapped at forty');
  });

  it('keeps two adjacent lists apart', () => {
    const doc = expectStable('- a\n- b\n\n* c\n* d\n\n1. x\n\n1) y\n');
    expect(doc.childCount).toBe(4);
  });

  it('keeps three adjacent lists apart, each with the other marker than the one before', () => {
    expect(expectStable('- a\n+ b\n- c\n\n1. x\n1) y\n1. z\n').childCount).toBe(6);
  });

  it('builds a document that passes the schema for awkward input', () => {
    for (const markdown of ['-\n- \n', '> \n', '- ```\n  code\n  ```\n', '|a|\n|-|\n', '']) {
      expectStable(markdown);
    }
  });

  it('uses the one schema', () => {
    expect(parseMarkdown('x').type.schema).toBe(inkwellSchema());
  });
});

describe('the link rule on Markdown import', () => {
  const hrefs = (markdown: string) => {
    const found: string[] = [];
    parseMarkdown(markdown).descendants((node) => {
      for (const mark of node.marks) if (mark.type.name === 'link') found.push(mark.attrs.href);
      if (node.type.name === 'image' || node.type.name === 'inlineImage')
        found.push(node.attrs.src);
    });
    return found;
  };

  it.each([
    ['[x](JaVaScRiPt:alert(1))'],
    ['[x](  javascript:alert(1))'],
    ['[x](<\tjavascript:alert(1)>)'],
    ['[x](java&#9;script:alert(1))'],
    ['[x](vbscript:msgbox(1))'],
    ['[x](file:///etc/passwd)'],
    ['[x](data:text/html;base64,PHNjcmlwdD4=)'],
    ['![x](data:image/svg+xml;base64,PHN2Zz4=)'],
    ['![x](javascript:alert(1))'],
    ['<a href="javascript:alert(1)">x</a>'],
  ])('rejects %s and keeps its text', (markdown) => {
    const doc = parseMarkdown(markdown);
    expect(hrefs(markdown)).toEqual([]);
    expect(doc.textContent).toContain('x');
    const html = reference.render(serializeMarkdown(doc)).toLowerCase();
    expect(html).not.toMatch(
      /(?:href|src)="\s*(?:javascript|vbscript|file|data:text|data:image\/svg)/,
    );
  });

  it.each([
    ['[x](https://example.com)', 'https://example.com'],
    ['[x](mailto:me@example.com)', 'mailto:me@example.com'],
    ['[x](../docs/readme.md)', '../docs/readme.md'],
    ['[x](#section)', '#section'],
    ['![x](data:image/png;base64,iVBORw0KGgo=)', 'data:image/png;base64,iVBORw0KGgo='],
  ])('accepts %s', (markdown, href) => {
    expect(hrefs(markdown)).toEqual([href]);
  });
});
