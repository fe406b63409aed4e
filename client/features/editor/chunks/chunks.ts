import {
  Fragment,
  type Node as ProseMirrorNode,
  type ResolvedPos,
  type Schema,
} from '@tiptap/pm/model';

/**
 * The editor holds the document's top-level blocks in chunks of about {@link CHUNK_SIZE}, a node
 * that exists only in the editor: the browser's work on each frame (the `content-visibility`
 * observer, layout and the hover hit test) and ProseMirror's redraw are linear in the number of
 * children of the editable element, which a chunk divides by 64. Nothing outside the editor sees
 * a chunk: what is saved, exported or counted is read through {@link unchunked} or
 * {@link forEachBlock}.
 */
export const CHUNK = 'chunk';
/** The class of a chunk's element (its `content-visibility` is in styles/editor.css). */
export const CHUNK_CLASS = 'ink-chunk';
/** Meta of a transaction that only moves blocks between chunks: the content is as it was. */
export const CHUNKS_ONLY = 'inkwellChunksOnly';

/**
 * Whether an editor update (Tiptap's `update` event) changed the content, rather than only where
 * the chunks begin and end: moving the cursor next to a chunk's edge gathers chunks, which
 * Tiptap reports as an update, and which must not be saved as an edit.
 */
export function changedContent(update: {
  transaction: { docChanged: boolean };
  appendedTransactions: readonly { docChanged: boolean; getMeta(key: string): unknown }[];
}): boolean {
  if (update.transaction.docChanged) return true;
  return update.appendedTransactions.some((tr) => tr.docChanged && !tr.getMeta(CHUNKS_ONLY));
}

/** Blocks per chunk when a document is opened or a chunk has grown too large. */
export const CHUNK_SIZE = 64;
/** A chunk with more blocks than this is split. */
export const MAX_CHUNK = 2 * CHUNK_SIZE;

export function isChunk(node: ProseMirrorNode | null | undefined): boolean {
  return node?.type.name === CHUNK;
}

/** Whether `doc` is an editor document, made of chunks. */
function isChunked(doc: ProseMirrorNode): boolean {
  return isChunk(doc.firstChild);
}

/** Calls `f` with each top-level block of the document, its position and its index. */
export function forEachBlock(
  doc: ProseMirrorNode,
  f: (block: ProseMirrorNode, pos: number, index: number) => void,
): void {
  let index = 0;
  doc.forEach((child, offset) => {
    if (!isChunk(child)) {
      f(child, offset, index++);
      return;
    }
    child.forEach((block, inner) => f(block, offset + 1 + inner, index++));
  });
}

/** The document's top-level blocks, chunks or not. */
export function blocksOf(doc: ProseMirrorNode): ProseMirrorNode[] {
  const blocks: ProseMirrorNode[] = [];
  forEachBlock(doc, (block) => blocks.push(block));
  return blocks;
}

/**
 * The document as the rest of Inkwell knows it: the same node type and attributes, its blocks
 * without chunks. (ProseMirror does not check content when a node is created, so the editor's
 * document type can hold the blocks directly.)
 */
export function unchunked(doc: ProseMirrorNode): ProseMirrorNode {
  if (!isChunked(doc)) return doc;
  return doc.type.create(doc.attrs, Fragment.fromArray(blocksOf(doc)), doc.marks);
}

/**
 * Blocks with no space above them. A chunk is laid out on its own (`content-visibility`
 * contains it), so the space between the last block of one chunk and the first of the next is
 * the sum of their margins rather than the larger one: a chunk starts only with one of these,
 * whose margin above is 0, and the space is the one the block before asks for, as without
 * chunks.
 */
const NO_SPACE_ABOVE = new Set([
  'paragraph',
  'bulletList',
  'orderedList',
  'taskList',
  'blockquote',
  'codeBlock',
  'table',
  'htmlBlock',
]);

/** Whether a chunk may start with `block` (see {@link NO_SPACE_ABOVE}). */
export function canStartChunk(block: ProseMirrorNode | null | undefined): boolean {
  return !!block && NO_SPACE_ABOVE.has(block.type.name);
}

/**
 * `blocks` grouped as chunks of about {@link CHUNK_SIZE}: a chunk may grow past that to start
 * the next with a block that can start one.
 */
export function inChunks<T extends ProseMirrorNode>(blocks: readonly T[]): T[][] {
  const chunks: T[][] = [];
  let start = 0;
  while (start < blocks.length) {
    let end = Math.min(blocks.length, start + CHUNK_SIZE);
    while (end < blocks.length && end - start < MAX_CHUNK && !canStartChunk(blocks[end])) end++;
    chunks.push(blocks.slice(start, end));
    start = end;
  }
  return chunks;
}

/** `blocks` in chunks of about {@link CHUNK_SIZE}. */
export function chunkBlocks(schema: Schema, blocks: readonly ProseMirrorNode[]): Fragment {
  const chunk = schema.nodes[CHUNK];
  if (!chunk) throw new RangeError('The schema has no chunk node.');
  return Fragment.fromArray(inChunks(blocks).map((inChunk) => chunk.create(null, inChunk)));
}

/**
 * The depth of the top-level block holding `$pos`: 2 in the editor, where blocks sit in chunks,
 * 1 elsewhere. 0 when `$pos` is between top-level blocks.
 */
export function blockDepth($pos: ResolvedPos): number {
  const depth = isChunk($pos.node(Math.min(1, $pos.depth))) && $pos.depth >= 1 ? 2 : 1;
  return $pos.depth >= depth ? depth : 0;
}

/**
 * Walks top-level blocks out from `pos` (backward from the start of the block holding it,
 * forward from its end) while `more(block)` says so, and returns the boundary reached. Each step
 * resolves one position: the work is that of the blocks walked, not of the document.
 */
export function walkBlocks(
  doc: ProseMirrorNode,
  pos: number,
  direction: -1 | 1,
  more: (block: ProseMirrorNode) => boolean,
): number {
  const chunked = isChunked(doc);
  const $pos = doc.resolve(pos);
  const depth = blockDepth($pos);
  let boundary = depth > 0 ? (direction < 0 ? $pos.before(depth) : $pos.after(depth)) : pos;
  if (chunked && depth === 0 && $pos.depth === 0) {
    // Between two chunks: step inside the one on the walk's side.
    if (direction < 0 && $pos.nodeBefore) boundary = pos - 1;
    if (direction > 0 && $pos.nodeAfter) boundary = pos + 1;
  }
  for (;;) {
    const $boundary = doc.resolve(boundary);
    let block = direction < 0 ? $boundary.nodeBefore : $boundary.nodeAfter;
    let crossing = 0;
    if (!block && chunked && $boundary.depth === 1) {
      // At a chunk's edge: the next block is in the chunk beside it.
      const chunkIndex = $boundary.index(0) + direction;
      if (chunkIndex < 0 || chunkIndex >= doc.childCount) break;
      const chunk = doc.child(chunkIndex);
      block = direction < 0 ? chunk.lastChild : chunk.firstChild;
      crossing = 2;
    }
    if (!block || isChunk(block) || !more(block)) break;
    boundary += direction * (crossing + block.nodeSize);
  }
  return boundary;
}
