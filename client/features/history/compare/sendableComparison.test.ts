import type { JSONContent } from '@tiptap/core';
import { describe, expect, it } from 'vitest';
import { compactJson } from '../../../../common/editor/compactJson.ts';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { parseMarkdown } from '../../../../common/editor/markdown/index.ts';
import { compareSchemaOf } from './compareSchema.ts';
import { compareSides, type CompareRequest, type SentComparison } from './sendableComparison.ts';

const schema = inkwellSchema();
/** Content as the server writes a version's. */
const content = (markdown: string) => compactJson(parseMarkdown(markdown, schema)) as JSONContent;
/** A version's answer as the server sends it. */
const answer = (markdown: string) =>
  JSON.stringify({ version: { id: '1' }, content: content(markdown) });

const OLDER = '# Title\n\nFirst paragraph.\n\nSecond paragraph.\n\nThird paragraph.';
const NEWER = '# Title\n\nFirst paragraph.\n\nSecond paragraph, longer now.\n\nThird paragraph.';

function compared(request: Partial<CompareRequest>) {
  const result: SentComparison = compareSides({
    older: { answer: answer(OLDER) },
    newer: { answer: answer(NEWER) },
    drawn: { side: 'newer', blocks: 4 },
    schema: compareSchemaOf(schema),
    ...request,
  });
  if (result.kind !== 'compared') throw new Error('not compared');
  return { ...result, newBlocks: JSON.parse(result.newBlocksJson) as JSONContent[] };
}

const textOf = (block: JSONContent) => schema.nodeFromJSON(block).textContent;

describe('compareSides', () => {
  it('names the blocks the drawn newer version has, and sends only the changed one', () => {
    const { blocks, newBlocks, changes } = compared({});
    expect(blocks).toEqual([0, 1, -1, 3]);
    expect(newBlocks.map(textOf)).toEqual(['Second paragraph, longer now.']);
    expect(changes.map((change) => change.kind)).toEqual(['inserted']);
  });

  it('names them in the drawn older version too, by their text', () => {
    const { blocks, newBlocks } = compared({ drawn: { side: 'older', blocks: 4 } });
    expect(blocks).toEqual([0, 1, -1, 3]);
    expect(newBlocks).toHaveLength(1);
  });

  it('compares a version with the document now, written the same way', () => {
    const { blocks, changes } = compared({
      older: { answer: answer(OLDER) },
      newer: { content: JSON.stringify(content(NEWER.replace('Third', 'A new line.\n\nThird'))) },
      drawn: { side: 'older', blocks: 4 },
    });
    expect(blocks).toEqual([0, 1, -1, -1, 3]);
    expect(changes.map((change) => change.kind)).toEqual(['inserted', 'inserted']);
  });

  it('sends every block when the drawing has other blocks than the answer', () => {
    const { blocks, newBlocks } = compared({ drawn: { side: 'newer', blocks: 3 } });
    expect(blocks).toEqual([-1, -1, -1, -1]);
    expect(newBlocks.map(textOf)).toEqual([
      'Title',
      'First paragraph.',
      'Second paragraph, longer now.',
      'Third paragraph.',
    ]);
  });

  it('refuses an answer that is not a version, or not JSON', () => {
    const request = (older: string) => () =>
      compareSides({
        older: { answer: older },
        newer: { answer: answer(NEWER) },
        drawn: { side: 'newer', blocks: 4 },
        schema: compareSchemaOf(schema),
      });
    expect(request('{"content":{"type":"paragraph"}}')).toThrow(TypeError);
    expect(request('null')).toThrow(TypeError);
    expect(request('{"content":')).toThrow(SyntaxError);
  });

  it('throws, rather than hangs, on content nested past any stack', () => {
    const depth = 200_000;
    const older =
      '{"content":{"type":"doc","content":[' +
      '{"type":"blockquote","content":['.repeat(depth) +
      '{"type":"paragraph"}' +
      ']}'.repeat(depth) +
      ']}}';
    expect(() =>
      compareSides({
        older: { answer: older },
        newer: { answer: answer(NEWER) },
        drawn: { side: 'newer', blocks: 4 },
        schema: compareSchemaOf(schema),
      }),
    ).toThrow();
  });
});
