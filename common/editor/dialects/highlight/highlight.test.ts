import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../markdown/serializeMarkdown.ts';
import { roundtrip } from '../../markdown/test/fidelity.ts';

const marksOf = (markdown: string) =>
  parseMarkdown(markdown).firstChild!.content.content.map((n) => [
    n.text,
    n.marks.map((m) => `${m.type.name}${m.attrs.syntax ? `(${String(m.attrs.syntax)})` : ''}`),
  ]);

describe('highlights written ==like this==', () => {
  it('reads ==text== as a highlight that remembers its syntax', () => {
    expect(marksOf('A ==bright== idea.\n')).toEqual([
      ['A ', []],
      ['bright', ['highlight(==)']],
      [' idea.', []],
    ]);
  });

  it('writes == back for == and <mark> for <mark>', () => {
    for (const text of [
      'A ==bright== idea.\n',
      'A <mark>bright</mark> idea.\n',
      '==**bold** inside== and ==*it*==.\n',
      '| a | b |\n| --- | --- |\n| ==in a cell== | x |\n',
      '> ==quoted==\n',
    ]) {
      expect(roundtrip(text)).toBe(text);
    }
  });

  it('leaves runs of one or three = and blank-surrounded == as text', () => {
    for (const text of ['a = b and c === d\n', 'x == y == z\n', 'a =not= b\n']) {
      const doc = parseMarkdown(text);
      let highlighted = false;
      doc.descendants((n) => {
        if (n.marks.some((m) => m.type.name === 'highlight')) highlighted = true;
      });
      expect(highlighted, text).toBe(false);
      expect(roundtrip(text)).toBe(text);
    }
  });

  it('escapes == in text only where it would pair up as a highlight', () => {
    const schema = parseMarkdown('').type.schema;
    const doc = (text: string) =>
      schema.node('doc', null, [schema.node('paragraph', null, [schema.text(text)])]);
    expect(serializeMarkdown(doc('a==b==c'))).toBe('a\\==b\\==c\n');
    expect(serializeMarkdown(doc('a==b'))).toBe('a==b\n');
    // At the start of a line every = of the run is escaped: `\===5===` would leave `==5==`.
    expect(parseMarkdown(serializeMarkdown(doc('===5==='))).textContent).toBe('===5===');
    expect(roundtrip(serializeMarkdown(doc('a==b==c')))).toBe('a\\==b\\==c\n');
    expect(parseMarkdown('a\\==b\\==c').textContent).toBe('a==b==c');
  });

  it('falls back to <mark> where == could not close', () => {
    const schema = parseMarkdown('').type.schema;
    const mark = schema.marks.highlight!.create({ syntax: '==' });
    const doc = schema.node('doc', null, [
      schema.node('paragraph', null, [schema.text('a.', [mark]), schema.text('b')]),
    ]);
    const out = serializeMarkdown(doc);
    expect(out).toBe('<mark>a.</mark>b\n');
    expect(parseMarkdown(out).firstChild!.firstChild!.marks[0]!.type.name).toBe('highlight');
  });
});
