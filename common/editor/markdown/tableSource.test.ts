import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../extensions.ts';
import { parseMarkdown } from './parseMarkdown.ts';
import { serializeMarkdown } from './serializeMarkdown.ts';
import { splitRow } from './tableSource.ts';

const roundtrip = (markdown: string) => serializeMarkdown(parseMarkdown(markdown));

describe('a GFM table through import → export', () => {
  it('keeps the padding, the outer pipes and the delimiter row as written', () => {
    const markdown =
      '| Event      | Date     |  Seen |\n' +
      '| :--------- | :------: | ----: |\n' +
      '| Last frost |  April   |   2 |\n' +
      'a | b | c\n\n' +
      '|x|\n|-|\n| |\n';
    expect(roundtrip(markdown)).toBe(markdown);
  });

  it('keeps cells whose text export would escape, as they still read the same', () => {
    const markdown = '| # | Cost |\n|--:|---|\n| 1 | ~€5 |\n| [[Note]] | a_b |\n';
    expect(roundtrip(markdown)).toBe(markdown);
  });

  it('keeps a table inside a quote', () => {
    const markdown = '> | a  | b  |\n> |----|----|\n> | 1  | 2  |\n';
    expect(roundtrip(markdown)).toBe(markdown);
  });

  it('rewrites only the row whose cells changed, and the delimiter row once an alignment did', () => {
    const doc = parseMarkdown('| a  | b  |\n|----|----|\n| 1  | 2  |\n| 3  | 4  |\n');
    const schema = inkwellSchema();
    const table = doc.firstChild!;
    const row = table.child(1);
    const cell = row.child(0);
    const edited = row.copy(
      row.content.replaceChild(
        0,
        cell.copy(cell.content.replaceChild(0, schema.node('paragraph', null, schema.text('one')))),
      ),
    );
    const header = table.child(0);
    const centred = header.copy(
      header.content.replaceChild(
        0,
        header
          .child(0)
          .type.create({ ...header.child(0).attrs, align: 'center' }, header.child(0).content),
      ),
    );
    expect(
      serializeMarkdown(
        doc.copy(doc.content.replaceChild(0, table.copy(table.content.replaceChild(1, edited)))),
      ),
    ).toBe('| a  | b  |\n|----|----|\n| one | 2 |\n| 3  | 4  |\n');
    expect(
      serializeMarkdown(
        doc.copy(doc.content.replaceChild(0, table.copy(table.content.replaceChild(0, centred)))),
      ),
    ).toBe('| a  | b  |\n| :---: | --- |\n| 1  | 2  |\n| 3  | 4  |\n');
  });

  it('never writes a kept line that says something else than the row holds', () => {
    const schema = inkwellSchema();
    const cell = (text: string) =>
      schema.node('tableCell', null, schema.node('paragraph', null, schema.text(text)));
    const doc = schema.node('doc', null, [
      schema.node('table', { delimiter: '|---|---|' }, [
        schema.node('tableRow', { markdown: '| <script>x</script> | b |' }, [cell('a'), cell('b')]),
        schema.node('tableRow', { markdown: '| c | d | e |' }, [cell('c'), cell('d')]),
      ]),
    ]);
    expect(serializeMarkdown(doc)).toBe('| a | b |\n|---|---|\n| c | d |\n');
  });

  it('splits a row at pipes no backslash escapes', () => {
    expect(splitRow('| a \\| b | c |')).toEqual([' a \\| b ', ' c ']);
    expect(splitRow('a | b')).toEqual(['a ', ' b']);
    expect(splitRow('| |')).toEqual([' ']);
  });
});
