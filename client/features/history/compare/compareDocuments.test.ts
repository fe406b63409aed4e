import type { JSONContent } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { parseMarkdown } from '../../../../common/editor/markdown/index.ts';
import {
  compareDocuments,
  type Change,
  type ChangeRange,
  type Comparison,
} from './compareDocuments.ts';
import { compareSchemaOf } from './compareSchema.ts';

const schema = inkwellSchema();
const options = { schema: compareSchemaOf(schema) };
const json = (markdown: string) => parseMarkdown(markdown, schema).toJSON() as JSONContent;

function compare(older: string, newer: string) {
  const result = compareDocuments(json(older), json(newer), options);
  if (result.kind !== 'compared') throw new Error('not compared');
  // The merged document must be one the schema takes, and every range must lie inside it.
  const doc = schema.nodeFromJSON(result.doc);
  doc.check();
  return { ...result, node: doc };
}

/** Where top-level block `index` of `doc` starts. */
function blockStart(doc: ProseMirrorNode, index: number): number {
  let pos = 0;
  for (let i = 0; i < index; i++) pos += doc.child(i).nodeSize;
  return pos;
}

/** The text a range covers in the compared document. */
function textAt(doc: ProseMirrorNode, range: ChangeRange): string {
  const start = blockStart(doc, range.block);
  return doc.textBetween(start + range.from, start + range.to, ' ', '\uFFFC');
}

const summary = (doc: ProseMirrorNode, changes: Change[]) =>
  changes.map((change) => ({
    kind: change.kind,
    ranges: change.ranges.map((range) => [range.kind, textAt(doc, range)]),
  }));

describe('compareDocuments', () => {
  it('finds nothing between equal documents', () => {
    const { changes, added, removed, node } = compare(
      '# Title\n\nSome text.',
      '# Title\n\nSome text.',
    );
    expect(changes).toEqual([]);
    expect([added, removed]).toEqual([0, 0]);
    expect(node.eq(parseMarkdown('# Title\n\nSome text.', schema))).toBe(true);
  });

  it('shows words typed and removed inside a paragraph, in place', () => {
    const { changes, node, added, removed } = compare(
      'The quick brown fox jumps.\n\nUntouched.',
      'The quick red fox leaps high.\n\nUntouched.',
    );
    expect(node.child(0).textContent).toBe('The quick brownred fox jumpsleaps high.');
    expect(summary(node, changes)).toEqual([
      {
        kind: 'replaced',
        ranges: [
          ['deleted', 'brown'],
          ['inserted', 'red'],
        ],
      },
      {
        kind: 'replaced',
        ranges: [
          ['deleted', 'jumps'],
          ['inserted', 'leaps high'],
        ],
      },
    ]);
    expect([added, removed]).toEqual([13, 10]);
  });

  it('shows text whose marks changed as formatted, not removed and added', () => {
    const { changes, node } = compare('One two three.', 'One **two** three.');
    expect(summary(node, changes)).toEqual([{ kind: 'formatted', ranges: [['formatted', 'two']] }]);
    expect(
      node
        .child(0)
        .child(1)
        .marks.map((mark) => mark.type.name),
    ).toEqual(['bold']);
  });

  it('shows a paragraph turned into a heading as formatted', () => {
    const { changes, node } = compare('Intro\n\nBody.', '## Intro\n\nBody.');
    expect(summary(node, changes)).toEqual([
      { kind: 'formatted', ranges: [['formatted', 'Intro']] },
    ]);
    expect(changes[0]!.ranges[0]!.node).toBe(true);
    expect(node.child(0).type.name).toBe('heading');
  });

  it('puts removed blocks back where they were, and marks added ones', () => {
    const { changes, node } = compare(
      'First.\n\nGone for good.\n\nLast.',
      'First.\n\nLast.\n\nA brand new closing line.',
    );
    expect(node.childCount).toBe(4);
    expect(summary(node, changes)).toEqual([
      { kind: 'deleted', ranges: [['deleted', 'Gone for good.']] },
      { kind: 'inserted', ranges: [['inserted', 'A brand new closing line.']] },
    ]);
    expect(changes.every((change) => change.ranges.every((range) => range.node))).toBe(true);
  });

  it('finds a block that moved', () => {
    const { changes, node } = compare(
      'Alpha paragraph here.\n\nBeta paragraph here.\n\nGamma paragraph here.',
      'Beta paragraph here.\n\nGamma paragraph here.\n\nAlpha paragraph here.',
    );
    expect(summary(node, changes)).toEqual([
      {
        kind: 'moved',
        ranges: [
          ['movedFrom', 'Alpha paragraph here.'],
          ['movedTo', 'Alpha paragraph here.'],
        ],
      },
    ]);
  });

  it('compares inside lists and tables, down to the changed item or cell', () => {
    const { changes, node } = compare(
      '- one\n- two\n  - nested a\n- three\n\n| a | b |\n| - | - |\n| 1 | 2 |',
      '- one\n- two\n  - nested b\n- four\n\n| a | b |\n| - | - |\n| 1 | 3 |',
    );
    expect(summary(node, changes)).toEqual([
      {
        kind: 'replaced',
        ranges: [
          ['deleted', 'a'],
          ['inserted', 'b'],
        ],
      },
      {
        kind: 'replaced',
        ranges: [
          ['deleted', 'three'],
          ['inserted', 'four'],
        ],
      },
      {
        kind: 'replaced',
        ranges: [
          ['deleted', '2'],
          ['inserted', '3'],
        ],
      },
    ]);
  });

  it('treats an image as one token, equal wherever it stays', () => {
    const { changes, node } = compare(
      'See ![cat](https://example.com/cat.png) here.',
      'See ![cat](https://example.com/cat.png) there.',
    );
    expect(summary(node, changes)).toEqual([
      {
        kind: 'replaced',
        ranges: [
          ['deleted', 'here'],
          ['inserted', 'there'],
        ],
      },
    ]);
    const changed = compare(
      'See ![cat](https://example.com/cat.png) here.',
      'See ![dog](https://example.com/dog.png) here.',
    );
    expect(changed.changes).toHaveLength(1);
    expect(changed.changes[0]!.ranges.map((range) => [range.kind, range.to - range.from])).toEqual([
      ['deleted', 1],
      ['inserted', 1],
    ]);
  });

  it('answers tooLarge rather than running past its budget', () => {
    let clock = 0;
    const result: Comparison = compareDocuments(json('a\n\nb'), json('c\n\nd'), {
      ...options,
      budgetMs: 10,
      now: () => (clock += 20),
    });
    expect(result).toEqual({ kind: 'tooLarge' });
  });

  it('keeps hostile content as data: a script in a removed block stays a text or HTML node', () => {
    const older = json('<script>alert(1)</script>\n\n[x](https://example.com)');
    const newer = json('Plain.');
    const result = compareDocuments(older, newer, options);
    expect(result.kind).toBe('compared');
    if (result.kind !== 'compared') return;
    // Nothing is made up: every node in the comparison came from one of the two documents.
    const types = new Set<string>();
    const walk = (node: JSONContent) => {
      types.add(node.type ?? '');
      node.content?.forEach(walk);
    };
    walk(result.doc);
    const known = new Set<string>();
    const walkKnown = (node: JSONContent) => {
      known.add(node.type ?? '');
      node.content?.forEach(walkKnown);
    };
    walkKnown(older);
    walkKnown(newer);
    expect([...types].every((type) => known.has(type))).toBe(true);
  });
});
