import { Extension, Node } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import {
  AllSelection,
  Plugin,
  PluginKey,
  Selection,
  TextSelection,
  type EditorState,
  type Transaction,
} from '@tiptap/pm/state';
import { TOP_CONTENT } from '../../../../common/editor/dialects/frontMatter/FrontMatter.ts';
import {
  CHUNK,
  CHUNK_CLASS,
  CHUNKS_ONLY,
  CHUNK_SIZE,
  MAX_CHUNK,
  canStartChunk,
  isChunk,
} from './chunks.ts';

/**
 * A selection across more blocks than this is not gathered into one chunk (see below): a command
 * that wraps blocks (a list, a quote) then does nothing across chunks; typing over it, deleting,
 * marks and block types still work.
 */
const MERGE_LIMIT = 1024;

/** The editor's document: chunks of top-level blocks (see chunks.ts). */
export const ChunkedDocument = Node.create({
  name: 'doc',
  topNode: true,
  content: `${CHUNK}+`,
});

/** A run of top-level blocks; never selected, dragged, pasted or saved as such. */
export const Chunk = Node.create({
  name: CHUNK,
  // The first chunk may open with the document's front matter.
  content: TOP_CONTENT,
  selectable: false,
  draggable: false,
  parseHTML: () => [],
  renderHTML: () => ['div', { class: CHUNK_CLASS }, 0],
});

interface Span {
  /** Index of the chunk holding the selection's first block, and that block's index in it. */
  firstChunk: number;
  firstBlock: number;
  lastChunk: number;
  lastBlock: number;
}

/** Where the selection's first and last top-level blocks are, or null for a whole-document one. */
function selectionSpan(tr: Transaction): Span | null {
  const { selection, doc } = tr;
  if (selection instanceof AllSelection) return null;
  const $from = doc.resolve(selection.from);
  const $to = doc.resolve(selection.to);
  if ($from.depth === 0 || $to.depth === 0) return null;
  const toBlock = $to.depth >= 2 || selection.empty ? $to.index(1) : $to.index(1) - 1;
  return {
    firstChunk: $from.index(0),
    firstBlock: $from.index(1),
    lastChunk: $to.index(0),
    lastBlock: Math.max(0, toBlock),
  };
}

function chunkStart(doc: ProseMirrorNode, index: number): number {
  let pos = 0;
  for (let i = 0; i < index; i++) pos += doc.child(i).nodeSize;
  return pos;
}

/**
 * Puts the blocks around the selection in one chunk: the selected blocks and the one on either
 * side. Every command then works as it does in a document without chunks (Backspace at the start
 * of a block joins it with the block before, a list wraps all the selected paragraphs), since
 * what it touches is in one chunk.
 */
function gatherAroundSelection(tr: Transaction): void {
  const span = selectionSpan(tr);
  if (!span) return;
  const { doc } = tr;
  let first = span.firstChunk;
  let last = span.lastChunk;
  if (span.firstBlock === 0 && first > 0) first--;
  if (span.lastBlock >= doc.child(last).childCount - 1 && last < doc.childCount - 1) last++;
  if (first === last) return;
  let blocks = 0;
  for (let i = first; i <= last; i++) blocks += doc.child(i).childCount;
  if (blocks > MERGE_LIMIT) return;
  let boundary = chunkStart(doc, last);
  for (let i = last; i > first; i--) {
    tr.join(boundary);
    boundary -= doc.child(i - 1).nodeSize;
  }
}

/**
 * Where to split a chunk of `blocks`: about every {@link CHUNK_SIZE} blocks, before a block with no space above,
 * and never so that the selection's blocks (`first` to `last`, or none) touch a chunk's edge.
 */
export function splitPoints(
  blocks: readonly ProseMirrorNode[],
  selected: [number, number] | null,
): number[] {
  const points: number[] = [];
  let start = 0;
  while (blocks.length - start > MAX_CHUNK) {
    let at = start + CHUNK_SIZE;
    while (at < blocks.length - 1 && at - start < MAX_CHUNK && !canStartChunk(blocks[at])) at++;
    if (selected && at >= selected[0] && at <= selected[1] + 1) at = selected[1] + 2;
    if (at >= blocks.length) break;
    points.push(at);
    start = at;
  }
  return points;
}

/** Splits every chunk that has grown past {@link MAX_CHUNK} blocks (a paste, a long run of Enter). */
function splitOversized(tr: Transaction): void {
  const span = selectionSpan(tr);
  const { doc } = tr;
  // From the end, so that positions before each split stay valid.
  for (let index = doc.childCount - 1; index >= 0; index--) {
    const chunk = doc.child(index);
    if (chunk.childCount <= MAX_CHUNK) continue;
    const blocks: ProseMirrorNode[] = [];
    chunk.forEach((block) => blocks.push(block));
    let selected: [number, number] | null = null;
    if (span && span.firstChunk <= index && span.lastChunk >= index) {
      selected = [
        span.firstChunk === index ? span.firstBlock : 0,
        span.lastChunk === index ? span.lastBlock : blocks.length - 1,
      ];
    }
    const points = splitPoints(blocks, selected);
    const start = chunkStart(doc, index) + 1;
    const offsets: number[] = [];
    let offset = 0;
    blocks.forEach((block, i) => {
      offsets[i] = offset;
      offset += block.nodeSize;
    });
    for (let i = points.length - 1; i >= 0; i--) {
      const point = points[i];
      if (point !== undefined) tr.split(start + (offsets[point] ?? 0));
    }
  }
}

/** An empty paragraph at the end when the document ends in anything else (Tiptap's TrailingNode). */
function keepTrailingParagraph(tr: Transaction): boolean {
  const { doc } = tr;
  const lastChunk = doc.lastChild;
  const paragraph = doc.type.schema.nodes.paragraph;
  if (!lastChunk || !isChunk(lastChunk) || !paragraph) return false;
  if (lastChunk.lastChild?.type === paragraph) return false;
  tr.insert(doc.content.size - 1, paragraph.create());
  return true;
}

const key = new PluginKey('inkwellBlockChunks');

/**
 * Select all as the text from the first character to the last, when the document starts and
 * ends with text (it ends with a paragraph, see above). ProseMirror's whole-document selection
 * sits outside the chunks, where a list or a quote cannot wrap what it holds; this one is
 * gathered into one chunk like any other, so Mod-A then a list works as without chunks.
 */
function selectAllText(state: EditorState, dispatch?: (tr: Transaction) => void): boolean {
  const { doc } = state;
  const first = Selection.findFrom(doc.resolve(0), 1, true);
  const last = Selection.findFrom(doc.resolve(doc.content.size), -1, true);
  if (!first || !last) return false;
  // Something without text before the first character or after the last (an image): the
  // whole-document selection is the one that holds it.
  if (doc.textBetween(0, first.from, '\n', '\ufffc').trim() !== '') return false;
  if (doc.textBetween(last.to, doc.content.size, '\n', '\ufffc').trim() !== '') return false;
  if (dispatch) dispatch(state.tr.setSelection(TextSelection.create(doc, first.from, last.to)));
  return true;
}

/**
 * Keeps the chunks workable after each change: the blocks around the selection in one chunk,
 * no chunk past {@link MAX_CHUNK} blocks, and a paragraph at the end to type into. Its changes
 * join the edit's undo step, or stay out of history when the edit did (opening, selecting).
 */
export const BlockChunks = Extension.create({
  name: 'blockChunks',

  addExtensions() {
    return [ChunkedDocument, Chunk];
  },

  addKeyboardShortcuts() {
    return {
      'Mod-a': ({ editor }) => selectAllText(editor.state, (tr) => editor.view.dispatch(tr)),
    };
  },

  addProseMirrorPlugins() {
    return [
      new Plugin({
        key,
        appendTransaction: (transactions, _oldState, state) => {
          if (!transactions.some((tr) => tr.docChanged || tr.selectionSet)) return null;
          const tr = state.tr;
          gatherAroundSelection(tr);
          splitOversized(tr);
          const added = keepTrailingParagraph(tr);
          if (!tr.docChanged) return null;
          if (!added) tr.setMeta(CHUNKS_ONLY, true);
          const recorded = transactions.some(
            (t) => t.docChanged && t.getMeta('addToHistory') !== false,
          );
          if (!recorded) tr.setMeta('addToHistory', false);
          return tr;
        },
      }),
    ];
  },
});
