import { getSchema } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { contentExtensions, inkwellSchema } from '../../../../common/editor/extensions.ts';
import { parseMarkdown } from '../../../../common/editor/markdown/parseMarkdown.ts';
import { rebuildInSchema } from '../rebuildInSchema.ts';
import { BlockChunks, splitPoints } from './BlockChunks.ts';
import {
  CHUNK_SIZE,
  MAX_CHUNK,
  blockDepth,
  blocksOf,
  chunkBlocks,
  forEachBlock,
  unchunked,
  walkBlocks,
} from './chunks.ts';

const shared = inkwellSchema();
const editorSchema = getSchema([...contentExtensions({ document: false }), BlockChunks]);

function flat(count: number): ProseMirrorNode {
  return shared.nodeFromJSON({
    type: 'doc',
    content: Array.from({ length: count }, (_, i) => ({
      type: 'paragraph',
      content: [{ type: 'text', text: `p${i} ${'x'.repeat(i % 7)}` }],
    })),
  });
}

function chunked(doc: ProseMirrorNode): ProseMirrorNode {
  const blocks = blocksOf(rebuildInSchema(doc, editorSchema));
  return editorSchema.topNodeType.createChecked(null, chunkBlocks(editorSchema, blocks));
}

/** The text of the blocks between two block boundaries. */
const textOf = (doc: ProseMirrorNode, from: number, to: number) =>
  doc.textBetween(Math.min(from, to), Math.max(from, to), '|');

describe('chunks', () => {
  it('hold the blocks in order, and give them back unchanged', () => {
    const doc = flat(300);
    const inChunks = chunked(doc);
    expect(inChunks.childCount).toBe(Math.ceil(300 / CHUNK_SIZE));
    expect(blocksOf(inChunks).map((b) => b.textContent)).toEqual(
      blocksOf(doc).map((b) => b.textContent),
    );
    expect(JSON.stringify(unchunked(inChunks).toJSON())).toBe(JSON.stringify(doc.toJSON()));
    const positions: number[] = [];
    forEachBlock(inChunks, (block, pos) => {
      expect(inChunks.nodeAt(pos)).toBe(block);
      positions.push(pos);
    });
    expect(positions).toHaveLength(300);
  });

  it('find the depth of a position’s top-level block with and without chunks', () => {
    const doc = flat(100);
    const inChunks = chunked(doc);
    expect(blockDepth(doc.resolve(3))).toBe(1);
    expect(blockDepth(inChunks.resolve(4))).toBe(2);
    expect(blockDepth(inChunks.resolve(1))).toBe(0);
    expect(blockDepth(doc.resolve(0))).toBe(0);
  });

  it('are walked block by block across their edges as a flat document is', () => {
    const doc = flat(200);
    const inChunks = chunked(doc);
    const flatStarts: number[] = [];
    const chunkStarts: number[] = [];
    forEachBlock(doc, (_b, pos) => flatStarts.push(pos + 2));
    forEachBlock(inChunks, (_b, pos) => chunkStarts.push(pos + 2));
    for (const index of [0, 1, 63, 64, 65, 127, 128, 199]) {
      for (const direction of [-1, 1] as const) {
        for (const steps of [0, 1, 3, 70, 500]) {
          let left = steps;
          const more = () => left-- > 0;
          const a = walkBlocks(doc, flatStarts[index] ?? 0, direction, more);
          left = steps;
          const b = walkBlocks(inChunks, chunkStarts[index] ?? 0, direction, more);
          const label = `block ${index}, ${direction}, ${steps}`;
          expect(textOf(inChunks, chunkStarts[index] ?? 0, b), label).toBe(
            textOf(doc, flatStarts[index] ?? 0, a),
          );
        }
      }
    }
  });

  it('are split about every 64 blocks, never at the selection’s edges', () => {
    const blocks = blocksOf(chunked(flat(400)));
    const free = splitPoints(blocks, null);
    expect(free[0]).toBe(CHUNK_SIZE);
    for (const selected of [
      [63, 63],
      [64, 64],
      [60, 130],
    ] as [number, number][]) {
      const points = splitPoints(blocks, selected);
      for (const point of points) {
        expect(point < selected[0] || point > selected[1] + 1, `${point} in ${selected}`).toBe(
          true,
        );
      }
      let start = 0;
      for (const point of [...points, blocks.length]) {
        if (!(selected[0] >= start && selected[0] < point)) {
          expect(point - start).toBeLessThanOrEqual(MAX_CHUNK);
        }
        start = point;
      }
    }
  });

  it('leave Markdown parsed in the editor’s schema as plain blocks for the caller to place', () => {
    // Paste as Markdown and AI answers parse in the editor's schema, whose document holds
    // chunks: the codec hands over the blocks instead of an empty document.
    const parsed = parseMarkdown('# Title\n\nSome *text*.\n\n- a\n- b\n', editorSchema);
    expect(parsed.content.content.map((block) => block.type.name)).toEqual([
      'heading',
      'paragraph',
      'bulletList',
    ]);
    expect(parsed.type.schema).toBe(editorSchema);
  });

  it('start with a block that has no space above it when one is near', () => {
    const doc = shared.nodeFromJSON({
      type: 'doc',
      content: Array.from({ length: 300 }, (_, i) =>
        i % 2 === 0
          ? { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: `h${i}` }] }
          : { type: 'horizontalRule' },
      ),
    });
    // Nothing may start a chunk: they grow to the limit and no further.
    const fragment = chunkBlocks(editorSchema, blocksOf(rebuildInSchema(doc, editorSchema)));
    fragment.forEach((chunk) => expect(chunk.childCount).toBeLessThanOrEqual(MAX_CHUNK));
  });
});
