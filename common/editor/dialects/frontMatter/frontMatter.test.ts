import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../extensions.ts';
import { parseMarkdown } from '../../markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../markdown/serializeMarkdown.ts';

const roundtrip = (markdown: string) => serializeMarkdown(parseMarkdown(markdown));

describe('YAML front matter', () => {
  it('reads the block at the very top as one front matter node holding its source', () => {
    const doc = parseMarkdown('---\ntitle: Notes\ntags: [a, b]\n---\n\n# Heading\n');
    doc.check();
    expect(doc.firstChild?.type.name).toBe('frontMatter');
    expect(doc.firstChild?.attrs).toEqual({
      open: '---',
      yaml: 'title: Notes\ntags: [a, b]\n',
      close: '---',
      spaced: true,
    });
    expect(doc.child(1).type.name).toBe('heading');
  });

  const cases: Array<[string, string]> = [
    ['a simple mapping', '---\ntitle: Notes\n---\n\nText.\n'],
    [
      'comments, quotes, lists and odd spacing',
      '---\n# a comment\ntitle:   "Quoted: yes"\naliases:\n  - One\n  -   Two\ncreated: 2024-03-09T10:00\n\nempty:\n---\n\n# Heading\n\nBody.\n',
    ],
    ['a closing `...` and blanks after the fences', '---  \nkey: value\n...\t\n\nText.\n'],
    ['empty front matter', '---\n---\n\nText.\n'],
    ['no blank line before the first block', '---\ntitle: Docs\n---\n# Heading\n\nText.\n'],
    ['front matter alone', '---\ncssclasses: wide\n---\n'],
    ['invalid YAML, kept as written', '---\nkey: [unclosed\n  : : :\n---\n\nText.\n'],
    [
      'front matter then rules further down',
      '---\na: 1\n---\n\nAbove.\n\n---\n\nBelow.\n\n---\n\nEnd.\n',
    ],
  ];
  for (const [name, markdown] of cases) {
    it(`writes back ${name} byte for byte`, () => {
      expect(roundtrip(markdown)).toBe(markdown);
    });
  }

  it('keeps a --- that is not on the first line a horizontal rule', () => {
    const doc = parseMarkdown('Text.\n\n---\na: 1\n---\n');
    expect(doc.firstChild?.type.name).toBe('paragraph');
    expect(doc.child(1).type.name).toBe('horizontalRule');
    let found = false;
    doc.descendants((node) => {
      found ||= node.type.name === 'frontMatter';
    });
    expect(found).toBe(false);
  });

  it('keeps a --- without a closing line a horizontal rule', () => {
    const doc = parseMarkdown('---\n\nText.\n');
    expect(doc.firstChild?.type.name).toBe('horizontalRule');
  });

  it('does not read front matter inside a quote or a list item on the first line', () => {
    for (const markdown of ['> ---\n> a: 1\n> ---\n', '- ---\n  a: 1\n  ---\n']) {
      let found = false;
      parseMarkdown(markdown).descendants((node) => {
        found ||= node.type.name === 'frontMatter';
      });
      expect(found, markdown).toBe(false);
    }
  });

  it('writes a rule that opens a document without front matter as *** so it stays a rule', () => {
    const schema = inkwellSchema();
    const doc = schema.node('doc', null, [
      schema.node('horizontalRule'),
      schema.node('paragraph', null, schema.text('a: 1')),
      schema.node('horizontalRule'),
    ]);
    const markdown = serializeMarkdown(doc);
    expect(markdown.startsWith('***\n')).toBe(true);
    expect(parseMarkdown(markdown).toJSON()).toEqual(doc.toJSON());
  });

  it('writes edited YAML with its fences, adding the missing last newline', () => {
    const schema = inkwellSchema();
    const doc = schema.node('doc', null, [
      schema.node('frontMatter', { open: '---', yaml: 'a: 2', close: '---' }),
      schema.node('paragraph', null, schema.text('Text.')),
    ]);
    expect(serializeMarkdown(doc)).toBe('---\na: 2\n---\n\nText.\n');
  });

  it('accepts front matter only as the first child of the document', () => {
    const schema = inkwellSchema();
    const front = schema.node('frontMatter', { yaml: 'a: 1\n' });
    const paragraph = schema.node('paragraph', null, schema.text('x'));
    expect(() => schema.node('doc', null, [paragraph, front]).check()).toThrow();
    expect(() =>
      schema.node('doc', null, [schema.node('blockquote', null, [front])]).check(),
    ).toThrow();
  });
});
