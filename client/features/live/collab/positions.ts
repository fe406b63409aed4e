import type { Node as ProseMirrorNode, ResolvedPos } from '@tiptap/pm/model';
import { absolutePositionToRelativePosition } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { blockStart } from './blockIndex.ts';
import type { ChunkedYBinding } from './ChunkedYBinding.ts';

/*
 * Editor positions (in the chunked document) to Yjs relative positions and back: what carets
 * of other writers, and anything else that must point into the shared document, are kept in.
 * y-tiptap's own pair counts positions from the start of the whole unchunked document; here each
 * position is taken relative to its top-level block, whose index counts chunks, not blocks.
 */

/** Top-level blocks in the chunks before chunk `chunkIndex`. */
function blocksBefore(doc: ProseMirrorNode, chunkIndex: number): number {
  let count = 0;
  for (let i = 0; i < chunkIndex; i++) count += doc.child(i).childCount;
  return count;
}

/** The top-level element of the block at `$pos` (depth 2 or more), null when there is none. */
export function blockElement(binding: ChunkedYBinding, $pos: ResolvedPos): Y.XmlElement | null {
  const index = blocksBefore($pos.doc, $pos.index(0)) + $pos.index(1);
  if (index >= binding.fragment.length) return null;
  const block = binding.fragment.get(index);
  return block instanceof Y.XmlElement ? block : null;
}

/** A relative position in the shared document for editor position `pos`. */
export function relativePosition(
  binding: ChunkedYBinding,
  doc: ProseMirrorNode,
  pos: number,
): Y.RelativePosition {
  const { fragment } = binding;
  const $pos = doc.resolve(Math.max(0, Math.min(pos, doc.content.size)));
  if ($pos.depth === 0) {
    return Y.createRelativePositionFromTypeIndex(fragment, blocksBefore(doc, $pos.index(0)));
  }
  const index = blocksBefore(doc, $pos.index(0)) + $pos.index(1);
  if ($pos.depth === 1 || index >= fragment.length) {
    return Y.createRelativePositionFromTypeIndex(fragment, Math.min(index, fragment.length));
  }
  const block = fragment.get(index);
  if (!(block instanceof Y.XmlElement)) {
    return Y.createRelativePositionFromTypeIndex(fragment, index);
  }
  return relativeInBlock(binding, block, pos - $pos.start(2));
}

/**
 * A relative position for `offset` (from the start of its content) inside the top-level `block`,
 * kept with the character before it (`assoc` -1: what is inserted there goes after it) or the one
 * after it (1). Its cost is the block's size, not the document's.
 */
export function relativeInBlock(
  binding: ChunkedYBinding,
  block: Y.XmlElement,
  offset: number,
  assoc: -1 | 1 = -1,
): Y.RelativePosition {
  // y-tiptap's walk, from the block rather than from the document's start; it keeps a position
  // in text with the character before it.
  const relative = absolutePositionToRelativePosition(offset, block, binding.meta.mapping);
  if (assoc < 0) return relative;
  const absolute = Y.createAbsolutePositionFromRelativePosition(relative, binding.doc);
  if (!absolute || absolute.type === binding.fragment) return relative;
  return Y.createRelativePositionFromTypeIndex(absolute.type, absolute.index, 0);
}

/** The size in the editor of a child of the shared document, null when it is not known. */
function sizeOf(child: unknown, binding: ChunkedYBinding): number | null {
  if (child instanceof Y.XmlText) return child.length;
  if (!(child instanceof Y.XmlElement)) return 0;
  const node = binding.meta.mapping.get(child);
  return node && !Array.isArray(node) ? node.nodeSize : null;
}

/** Sum of the sizes of the first `count` children of `type` (all before `stop` when given). */
function sizeBefore(
  type: Y.XmlFragment,
  binding: ChunkedYBinding,
  count: number,
  stop?: unknown,
): number | null {
  let size = 0;
  let seen = 0;
  for (let item = type._start; item && seen < count; item = item.right) {
    if (item.deleted || !item.countable) continue;
    const child: unknown = item.content.getContent()[0];
    if (child === stop) break;
    const childSize = sizeOf(child, binding);
    if (childSize === null) return null;
    size += childSize;
    seen++;
  }
  return size;
}

/**
 * Where a relative position inside a top-level block points: that block's element and the
 * offset from the start of its content; null when it points between blocks or at what is gone.
 */
export function offsetInBlock(
  binding: ChunkedYBinding,
  relative: Y.RelativePosition,
): BlockOffset | null {
  const absolute = Y.createAbsolutePositionFromRelativePosition(relative, binding.doc);
  return absolute ? blockOffset(binding, absolute) : null;
}

interface BlockOffset {
  /** The top-level child of the fragment. */
  block: Y.AbstractType<unknown>;
  /** From the start of its content. */
  offset: number;
}

function blockOffset(binding: ChunkedYBinding, absolute: Y.AbsolutePosition): BlockOffset | null {
  const { fragment } = binding;
  if (absolute.type === fragment) return null;
  const type = absolute.type;
  if (!(type instanceof Y.XmlElement || type instanceof Y.XmlText)) return null;
  let offset =
    type instanceof Y.XmlText ? absolute.index : sizeBefore(type, binding, absolute.index);
  if (offset === null) return null;
  let child: Y.AbstractType<unknown> = type as Y.AbstractType<unknown>;
  while (child.parent !== fragment) {
    const parent = child.parent;
    if (!(parent instanceof Y.XmlElement) || child._item?.deleted) return null;
    const before = sizeBefore(parent, binding, Number.POSITIVE_INFINITY, child);
    if (before === null) return null;
    offset += before + (child instanceof Y.XmlText ? 0 : 1);
    child = parent as Y.AbstractType<unknown>;
  }
  if (child._item?.deleted) return null;
  return { block: child, offset };
}

/** The editor position of a relative position, or null when what it pointed at is gone. */
export function absolutePosition(
  binding: ChunkedYBinding,
  doc: ProseMirrorNode,
  relative: Y.RelativePosition,
): number | null {
  const { fragment } = binding;
  const absolute = Y.createAbsolutePositionFromRelativePosition(relative, binding.doc);
  if (!absolute) return null;
  if (absolute.type === fragment) return blockStart(doc, absolute.index);
  const found = blockOffset(binding, absolute);
  if (!found) return null;
  // The top-level block's index: the live children before it.
  let index = 0;
  for (let item = found.block._item?.left ?? null; item; item = item.left) {
    if (!item.deleted && item.countable) index++;
  }
  const pos = blockStart(doc, index) + 1 + found.offset;
  return Math.min(pos, doc.content.size);
}
