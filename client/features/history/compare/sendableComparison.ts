import type { JSONContent } from '@tiptap/core';
import { compareDocuments, type CompareSchema, type Comparison } from './compareDocuments.ts';

/** One side of a comparison as the page sends it to the worker. */
export type CompareSide =
  /**
   * A version's answer (`GET /api/documents/:id/versions/:versionId`) as the server wrote it:
   * JSON text, read in the worker rather than on the page.
   */
  | { answer: string }
  /** The document now: its content as JSON text, written as the server writes it (contentText.ts). */
  | { content: string };

/** What the page asks the worker (or, without workers, {@link compareSides} on the page). */
export interface CompareRequest {
  older: CompareSide;
  newer: CompareSide;
  /**
   * The side the page has drawn already, and how many top-level blocks that drawing has: the
   * answer names the compared document's unchanged blocks by their index there instead of
   * sending them back.
   */
  drawn: { side: 'older' | 'newer'; blocks: number };
  schema: CompareSchema;
}

/**
 * A comparison as the worker sends it: the compared document as its top-level blocks, each the
 * index of the same block in the drawn side, or -1 for the next of `newBlocksJson` (one JSON
 * array). A 1.2 MB document copied back whole took the page's thread about 100 ms to read and
 * build again; its unchanged blocks are already built on the page.
 */
export type SentComparison =
  | (Omit<Extract<Comparison, { kind: 'compared' }>, 'doc'> & {
      blocks: number[];
      newBlocksJson: string;
    })
  | Extract<Comparison, { kind: 'tooLarge' }>;

/** The content of `side`. Throws for an answer that is not a version's. */
function contentOf(side: CompareSide): JSONContent {
  const content =
    'content' in side
      ? (JSON.parse(side.content) as JSONContent | null)
      : (JSON.parse(side.answer) as { content?: JSONContent } | null)?.content;
  if (typeof content !== 'object' || content === null || content.type !== 'doc') {
    throw new TypeError('The answer holds no document.');
  }
  return content;
}

/** Compares the two sides of `request`, answering as the worker sends it. */
export function compareSides(request: CompareRequest): SentComparison {
  const older = contentOf(request.older);
  const newer = contentOf(request.newer);
  const comparison = compareDocuments(older, newer, { schema: request.schema });
  if (comparison.kind !== 'compared') return comparison;
  const { doc, ...rest } = comparison;
  const drawn = (request.drawn.side === 'older' ? older : newer).content ?? [];
  // Blocks the page drew from other content than this (it dropped some as damaged) can't be named.
  const named = drawn.length === request.drawn.blocks ? drawn : [];
  const byNode = new Map(named.map((block, index) => [block, index]));
  let byText: Map<string, number> | undefined;
  const newBlocks: JSONContent[] = [];
  const blocks = (doc.content ?? []).map((block) => {
    const same = byNode.get(block);
    if (same !== undefined) return same;
    // The older's blocks where the newer is drawn, and the other way round, are equal copies.
    byText ??= new Map(named.map((other, index) => [JSON.stringify(other), index]));
    const equal = byText.get(JSON.stringify(block));
    if (equal !== undefined) return equal;
    newBlocks.push(block);
    return -1;
  });
  return { ...rest, blocks, newBlocksJson: JSON.stringify(newBlocks) };
}
