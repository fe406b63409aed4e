import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../extensions.ts';
import { sanitizeDocJson } from '../sanitizeDocJson.ts';
import { parseMarkdown } from './parseMarkdown.ts';
import { serializeMarkdown } from './serializeMarkdown.ts';

const roundtrip = (markdown: string) => serializeMarkdown(parseMarkdown(markdown));

describe('the syntax a file chose, through import → export', () => {
  it('keeps _ and * for italic, __ and ** for bold', () => {
    const markdown =
      '_a_ *b* __c__ **d**, __bold _italic_ inside__ and ***both***, **_this_** and __*that*__.\n';
    expect(roundtrip(markdown)).toBe(markdown);
  });

  it('keeps a hard break written as two blanks or as a backslash', () => {
    const markdown = 'one  \ntwo\\\nthree\n\n> quoted  \n> line\n';
    expect(roundtrip(markdown)).toBe(markdown);
  });

  it('keeps the fence of a code block, longer where the code needs it', () => {
    expect(roundtrip('~~~~ js\nx\n~~~~\n')).toBe('~~~~ js\nx\n~~~~\n');
    expect(roundtrip('````\n```\n````\n')).toBe('````\n```\n````\n');
    expect(roundtrip('``` sh\nls\n```\n')).toBe('``` sh\nls\n```\n');
    expect(roundtrip('~~~\n~~~~~ not a fence in here\n~~~~~~\n')).toBe(
      '~~~~~~\n~~~~~ not a fence in here\n~~~~~~\n',
    );
  });

  it('keeps the characters of a thematic break', () => {
    for (const rule of ['***', '___', '* * *', '- - -', '_____']) {
      const markdown = `Text\n\n${rule}\n\nMore\n`;
      expect(roundtrip(markdown)).toBe(markdown);
    }
  });

  it('keeps ) after the numbers of an ordered list', () => {
    expect(roundtrip('3) three\n4) four\n')).toBe('3) three\n4) four\n');
  });

  it('keeps the number each item of an ordered list was written with', () => {
    for (const markdown of ['3. three\n2. two\n1. one\n', '1. a\n1. b\n1. c\n', '7) x\n9) y\n']) {
      expect(roundtrip(markdown)).toBe(markdown);
    }
    const doc = parseMarkdown('1. a\n1. b\n');
    const schema = inkwellSchema();
    const list = doc.firstChild!;
    const added = list.copy(
      list.content.addToEnd(schema.node('listItem', null, list.firstChild!.content)),
    );
    expect(serializeMarkdown(schema.node('doc', null, [added]))).toBe('1. a\n1. b\n2. a\n');
  });

  it('keeps the blanks before the markers of a nested or indented list', () => {
    for (const markdown of [
      '- item\n    - sub one\n      wrapped\n    - sub two\n',
      ' 1. one\n 2. two\n',
      '1. item\n\n     - deeper\n',
    ]) {
      expect(roundtrip(markdown)).toBe(markdown);
    }
  });

  it('keeps a setext heading with its underline', () => {
    const markdown = 'Title\n=====\n\nPart\n---\n\nText\n';
    expect(roundtrip(markdown)).toBe(markdown);
  });

  it('keeps a block on the line after the one before when the file had no blank line between', () => {
    const markdown =
      '### Fixed\n- item\n- two\n\nTodo:\n- [ ] task\n## Next\nText\n```\ncode\n```\n\n' +
      '> one\n> > two\n\n1. a\n2. b\n3) c\n';
    expect(roundtrip(markdown)).toBe(markdown);
  });

  it('puts a blank line back where a joined block would not read back on its own', () => {
    const schema = inkwellSchema();
    const item = (text: string) =>
      schema.node('listItem', null, schema.node('paragraph', null, schema.text(text)));
    const doc = schema.node('doc', null, [
      schema.node('bulletList', null, [item('a')]),
      schema.node('paragraph', { joined: true }, schema.text('lazy?')),
      schema.node('paragraph', { joined: true }, schema.text('merged?')),
      schema.node('orderedList', { start: 2, joined: true }, [item('b')]),
      schema.node('blockquote', null, schema.node('paragraph', null, schema.text('q'))),
      schema.node('blockquote', { joined: true }, schema.node('paragraph', null, schema.text('r'))),
    ]);
    const markdown = '- a\n\nlazy?\n\nmerged?\n\n2. b\n\n> q\n\n> r\n';
    expect(serializeMarkdown(doc)).toBe(markdown);
    expect(parseMarkdown(markdown).childCount).toBe(6);
  });

  it('escapes brackets only where they would read as something else', () => {
    const kept = 'See [[Note]], [[Note|alias]], ![[file.png]] and [draft] or a] b[.\n';
    expect(roundtrip(kept)).toBe(kept);
    for (const markdown of [
      '\\[text\\](https://a.example/) is no link.\n',
      'A \\[label\\] that a definition names.\n\n[label]: https://a.example/\n',
      '> \\[!note] is no callout.\n',
      '\\[a\\]: https://not-a-definition.example/\n',
      '# A \\[b\\](c) heading\n',
    ]) {
      expect(roundtrip(markdown)).toBe(markdown);
    }
  });

  it("keeps the file's own backslash escapes where export would not add them", () => {
    const markdown =
      'About \\$10,000 (so \\~€408), \\<not a tag\\>, a\\_b\\_c, 5 \\> 4, a \\# sign, 1\\. two,\n' +
      '\\$not math\\$, \\==not a highlight\\== and \\&amp; \\[x\\].\n\n' +
      '| a \\| b | \\~c |\n| --- | --- |\n';
    expect(roundtrip(markdown)).toBe(markdown);
  });

  it('writes an escaped mark on anything but punctuation as plain text', () => {
    const schema = inkwellSchema();
    const escaped = schema.marks.escaped!.create();
    const doc = schema.node('doc', null, [
      schema.node('paragraph', null, [schema.text('a', [escaped]), schema.text('$b')]),
    ]);
    expect(serializeMarkdown(doc)).toBe('a$b\n');
    expect(schema.marks.escaped!.spec.inclusive).toBe(false);
  });

  it('writes what the editor made in the usual form', () => {
    const schema = inkwellSchema();
    const doc = schema.node('doc', null, [
      schema.node('heading', { level: 1 }, schema.text('T')),
      schema.node('paragraph', null, [
        schema.text('b', [schema.marks.bold!.create()]),
        schema.text(' '),
        schema.text('i', [schema.marks.italic!.create()]),
        schema.node('hardBreak'),
        schema.text('x'),
      ]),
      schema.node('horizontalRule'),
      schema.node('codeBlock', null, schema.text('c')),
    ]);
    expect(serializeMarkdown(doc)).toBe('# T\n\n**b** *i*\\\nx\n\n---\n\n```\nc\n```\n');
  });

  it('writes an edited setext heading as ATX once its level no longer matches', () => {
    const doc = parseMarkdown('Title\n=====\n');
    const schema = inkwellSchema();
    const heading = doc.firstChild!;
    const level2 = schema.node('doc', null, [
      schema.node('heading', { ...heading.attrs, level: 3 }, heading.content),
    ]);
    expect(serializeMarkdown(level2)).toBe('### Title\n');
  });

  it('drops a syntax attribute that no Markdown form matches when a document comes in', () => {
    const json = {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'a' }] },
        { type: 'horizontalRule', attrs: { syntax: '<script>' } },
        {
          type: 'bulletList',
          attrs: { indent: 8 },
          content: [{ type: 'listItem', content: [{ type: 'paragraph' }] }],
        },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'x', marks: [{ type: 'bold', attrs: { syntax: '<b>' } }] },
            {
              type: 'text',
              text: 'y',
              marks: [{ type: 'link', attrs: { href: '/y', reference: 'a]b', syntax: 'bogus' } }],
            },
          ],
        },
      ],
    };
    const clean = sanitizeDocJson(json)!;
    expect(clean.content![1]!.attrs).toEqual({ syntax: null });
    expect(clean.content![3]!.content![0]!.marks![0]!.attrs).toEqual({ syntax: null });
    expect(clean.content![3]!.content![1]!.marks![0]!.attrs).toEqual({
      href: '/y',
      reference: null,
      syntax: null,
    });
    const doc = inkwellSchema().nodeFromJSON(clean);
    expect(clean.content![2]!.attrs).toEqual({ indent: null });
    expect(serializeMarkdown(doc)).toBe('a\n\n---\n\n-\n\n**x**[y](/y)\n');
  });
});
