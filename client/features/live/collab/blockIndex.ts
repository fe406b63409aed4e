import type { Node as ProseMirrorNode } from '@tiptap/pm/model';

/*
 * Top-level blocks of the chunked editor document by index, which is how the shared document
 * (one Y.XmlFragment child per block) counts them. Every walk here steps over whole chunks, so
 * its cost is the number of chunks (about blocks / 64) plus the blocks it returns, never the
 * whole document's blocks: this runs on every keystroke.
 */

/** Number of top-level blocks. */
export function blockCount(doc: ProseMirrorNode): number {
  let count = 0;
  doc.forEach((chunk) => (count += chunk.childCount));
  return count;
}

/** Chunk index and index inside it of block `index`; `[childCount, 0]` past the end. */
function locate(doc: ProseMirrorNode, index: number): [number, number, number] {
  let pos = 0;
  for (let c = 0; c < doc.childCount; c++) {
    const chunk = doc.child(c);
    if (index < chunk.childCount) return [c, index, pos];
    index -= chunk.childCount;
    pos += chunk.nodeSize;
  }
  return [doc.childCount, 0, pos];
}

/** Position before block `index`, or the end of the last chunk's content for `index` = count. */
export function blockStart(doc: ProseMirrorNode, index: number): number {
  const [c, inner, chunkPos] = locate(doc, index);
  if (c >= doc.childCount) return Math.max(0, doc.content.size - 1);
  const chunk = doc.child(c);
  let pos = chunkPos + 1;
  for (let i = 0; i < inner; i++) pos += chunk.child(i).nodeSize;
  return pos;
}

/** Blocks `from` to `to` (exclusive). */
export function blocksBetween(doc: ProseMirrorNode, from: number, to: number): ProseMirrorNode[] {
  const blocks: ProseMirrorNode[] = [];
  let [c, inner] = locate(doc, from);
  for (let i = from; i < to && c < doc.childCount; i++) {
    const chunk = doc.child(c);
    blocks.push(chunk.child(inner));
    if (++inner >= chunk.childCount) {
      c++;
      inner = 0;
    }
  }
  return blocks;
}

/** A cursor over blocks, forward or backward, that can step over a whole chunk. */
class BlockCursor {
  chunk: number;
  inner = 0;
  constructor(
    readonly doc: ProseMirrorNode,
    readonly dir: 1 | -1,
  ) {
    this.chunk = dir > 0 ? 0 : doc.childCount - 1;
    this.settle();
  }
  /** Moves past empty chunk ends; false at the end of the document. */
  settle(): boolean {
    while (this.chunk >= 0 && this.chunk < this.doc.childCount) {
      if (this.inner < this.doc.child(this.chunk).childCount) return true;
      this.chunk += this.dir;
      this.inner = 0;
    }
    return false;
  }
  get done(): boolean {
    return this.chunk < 0 || this.chunk >= this.doc.childCount;
  }
  get atChunkStart(): boolean {
    return this.inner === 0;
  }
  get currentChunk(): ProseMirrorNode {
    return this.doc.child(this.chunk);
  }
  get block(): ProseMirrorNode {
    const chunk = this.currentChunk;
    return chunk.child(this.dir > 0 ? this.inner : chunk.childCount - 1 - this.inner);
  }
  skipChunk(): void {
    this.chunk += this.dir;
    this.inner = 0;
    this.settle();
  }
  next(): void {
    this.inner++;
    this.settle();
  }
}

/**
 * How many blocks the two documents share, by identity, from the start (`dir` 1) or the end
 * (-1), at most `limit`. ProseMirror keeps every untouched node, so a changed block is one that
 * is not the same object; gathering and splitting chunks keep the blocks' identity.
 */
export function sharedBlocks(
  a: ProseMirrorNode,
  b: ProseMirrorNode,
  dir: 1 | -1,
  limit: number,
): number {
  const ca = new BlockCursor(a, dir);
  const cb = new BlockCursor(b, dir);
  let count = 0;
  while (!ca.done && !cb.done && count < limit) {
    if (ca.atChunkStart && cb.atChunkStart && ca.currentChunk === cb.currentChunk) {
      const size = ca.currentChunk.childCount;
      if (count + size > limit) break;
      count += size;
      ca.skipChunk();
      cb.skipChunk();
      continue;
    }
    if (ca.block !== cb.block) break;
    count++;
    ca.next();
    cb.next();
  }
  // A whole chunk that would pass the limit is walked block by block.
  while (!ca.done && !cb.done && count < limit && ca.block === cb.block) {
    count++;
    ca.next();
    cb.next();
  }
  return count;
}

/** The change between two editor documents as a range of block indices. */
export interface BlockChange {
  /** First changed block, in both. */
  from: number;
  /** End of the changed blocks in the old document (exclusive). */
  oldTo: number;
  /** End in the new document. */
  newTo: number;
}

/** The blocks that differ between `a` and `b`, or null when the blocks are the same. */
export function changedBlocks(a: ProseMirrorNode, b: ProseMirrorNode): BlockChange | null {
  const countA = blockCount(a);
  const countB = blockCount(b);
  const limit = Math.min(countA, countB);
  const head = sharedBlocks(a, b, 1, limit);
  if (head === countA && head === countB) return null;
  const tail = sharedBlocks(a, b, -1, limit - head);
  return { from: head, oldTo: countA - tail, newTo: countB - tail };
}

/** The blocks of each chunk met, as a set: an edit leaves all but one chunk the same node. */
const chunkBlockSets = new WeakMap<ProseMirrorNode, Set<ProseMirrorNode>>();

function blocksIn(chunk: ProseMirrorNode): Set<ProseMirrorNode> {
  let blocks = chunkBlockSets.get(chunk);
  if (!blocks) {
    blocks = new Set();
    chunk.forEach((block) => blocks!.add(block));
    chunkBlockSets.set(chunk, blocks);
  }
  return blocks;
}

/**
 * Index and position of each block of `wanted` found in `doc`: one step per chunk, and a walk
 * only over the chunks that hold one (a remote keystroke in a 1.2 MB document looked at every
 * one of its six thousand blocks).
 */
export function findBlocks(
  doc: ProseMirrorNode,
  wanted: ReadonlySet<ProseMirrorNode>,
): Map<ProseMirrorNode, { index: number; pos: number }> {
  const found = new Map<ProseMirrorNode, { index: number; pos: number }>();
  let index = 0;
  doc.forEach((chunk, chunkPos) => {
    if (found.size === wanted.size) return;
    const blocks = blocksIn(chunk);
    let holds = false;
    for (const block of wanted) {
      if (blocks.has(block)) {
        holds = true;
        break;
      }
    }
    if (!holds) {
      index += chunk.childCount;
      return;
    }
    chunk.forEach((block, offset) => {
      if (wanted.has(block)) found.set(block, { index, pos: chunkPos + 1 + offset });
      index++;
    });
  });
  return found;
}
