import { isChunk } from './chunks/chunks.ts';
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

/** A chunk's counts, the sum of its blocks': an edit leaves all but one chunk the same node. */
function chunkStats(chunk: ProseMirrorNode, counter: CharacterCountStorage): DocumentStats {
  let stats = cache.get(chunk);
  if (!stats) {
    stats = { words: 0, characters: 0 };
    for (let index = 0; index < chunk.childCount; index++) {
      const block = blockStats(chunk.child(index), counter);
      stats.words += block.words;
      stats.characters += block.characters;
    }
    cache.set(chunk, stats);
  }
  return stats;
}

/**
 * The counts of `doc`, equal to CharacterCount's `words()` and `characters()` on the whole
 * document, computed block by block, and chunk by chunk: after a keystroke in a 1.2 MB
 * document, about a hundred lookups instead of six thousand.
 */
export function documentStats(doc: ProseMirrorNode, counter: CharacterCountStorage): DocumentStats {
  let words = 0;
  let characters = 0;
  doc.forEach((child) => {
    const stats = isChunk(child) ? chunkStats(child, counter) : blockStats(child, counter);
    words += stats.words;
    characters += stats.characters;
  });
  return { words, characters };
}
