import { forEachBlock } from './chunks/chunks.ts';
import type { CharacterCountStorage } from '@tiptap/extensions';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';

/** Word and character counts of a document. */
export interface DocumentStats {
  /** Words, as CharacterCount's word counter splits them. */
  words: number;
  /** Characters of text, as CharacterCount counts them (a leaf node is one). */
  characters: number;
}

// Nodes are immutable and an edit replaces only the blocks it touches, so counts of unchanged
// top-level blocks are reused: a recount costs one lookup per block instead of a full text walk.
const cache = new WeakMap<ProseMirrorNode, DocumentStats>();

function blockStats(block: ProseMirrorNode, counter: CharacterCountStorage): DocumentStats {
  let stats = cache.get(block);
  if (!stats) {
    stats = block.isLeaf
      ? { words: 0, characters: 1 }
      : { words: counter.words({ node: block }), characters: counter.characters({ node: block }) };
    cache.set(block, stats);
  }
  return stats;
}

/**
 * The counts of `doc`, equal to CharacterCount's `words()` and `characters()` on the whole
 * document, computed block by block.
 */
export function documentStats(doc: ProseMirrorNode, counter: CharacterCountStorage): DocumentStats {
  let words = 0;
  let characters = 0;
  forEachBlock(doc, (block) => {
    const stats = blockStats(block, counter);
    words += stats.words;
    characters += stats.characters;
  });
  return { words, characters };
}
