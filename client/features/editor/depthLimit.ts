import { Extension } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { ReplaceAroundStep, ReplaceStep } from '@tiptap/pm/transform';
import { MAX_DEPTH } from '../../../common/api/limits.ts';
import { htmlTooDeepIfReady } from './nodeViews/htmlSanitizer.ts';
import { isChunk } from './chunks/chunks.ts';
import { isRemoteChange } from '../live/collab/remoteChange.ts';

/** How deep the blocks in `block` nest, `block` itself counting 1 (MAX_DEPTH's count). */
function blockDepth(block: ProseMirrorNode): number {
  // A stack of its own: pasted content may nest deeper than a recursive walk could go.
  const stack: Array<[ProseMirrorNode, number]> = [[block, 1]];
  let deepest = 1;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    node.forEach((child) => {
      if (!child.isInline && !isChunk(child)) stack.push([child, depth + 1]);
    });
  }
  return deepest;
}

/** The ranges of `tr.doc` that `tr` changed. */
function changedRanges(tr: Transaction): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  tr.mapping.maps.forEach((map, index) => {
    const after = tr.mapping.slice(index + 1);
    map.forEach((_oldStart, _oldEnd, start, end) => {
      ranges.push([after.map(start, -1), after.map(end, 1)]);
    });
  });
  return ranges;
}

/**
 * How deep the top-level blocks that `tr` changed nest once it is applied, or 0 when it changed
 * none. Only those blocks are measured, so that a paste into a long document costs little.
 */
export function changedDepth(tr: Transaction): number {
  const ranges = changedRanges(tr);
  if (ranges.length === 0) return 0;
  const size = tr.doc.content.size;
  const measured = new Set<number>();
  let deepest = 0;
  for (const [from, to] of ranges) {
    // The blocks the range touches, found by descending to it (a keystroke in a long document
    // visits a few nodes, not every block): a position more on each side counts a block that
    // only ends or starts at the range.
    const start = Math.min(Math.max(from - 1, 0), size);
    const end = Math.max(Math.min(to + 1, size), start);
    tr.doc.nodesBetween(start, end, (node, pos) => {
      if (isChunk(node)) return true;
      if (!measured.has(pos)) {
        measured.add(pos);
        deepest = Math.max(deepest, blockDepth(node));
      }
      return false;
    });
  }
  return deepest;
}

/** Why `tr` may not be applied (`what` would nest past MAX_DEPTH), or null if it may. */
export function depthProblem(tr: Transaction, what: string): string | null {
  const depth = changedDepth(tr);
  if (depth <= MAX_DEPTH) return null;
  return (
    `${what} would nest blocks ${depth.toLocaleString('en-US')} levels deep; ` +
    `Inkwell accepts at most ${MAX_DEPTH} (each quote counts 1, each list level 2).`
  );
}

/**
 * Deepest element nesting of pasted or dropped HTML that is read at all. Blink's and WebKit's
 * HTML parsers stop nesting at 512, so no clipboard a browser filled holds more; anything deeper
 * is refused before a DOM is built from it, as reading that DOM (ProseMirror's parser) recurses
 * once per level and would run out of call stack.
 */
export const MAX_HTML_NESTING = 512;

/**
 * Whether the elements of `html` nest deeper than {@link MAX_HTML_NESTING}: read by the HTML
 * tokenizer (htmlDepth.ts) once the code an HTML paste needs has loaded, which every paste waits
 * for (htmlSanitizer.ts). Before that, as for a drop right after its drag began or a paste when
 * that code could not load, the DOM the browser builds from the HTML is measured, without
 * recursion: browsers cap the nesting they build, and the editor reads that same DOM.
 */
export function isHtmlTooDeep(html: string): boolean {
  const checked = htmlTooDeepIfReady(html);
  if (checked !== null) return checked;
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  const stack: Array<[Element, number]> = [[body, 0]];
  while (stack.length > 0) {
    const [element, depth] = stack.pop()!;
    if (depth > MAX_HTML_NESTING) return true;
    for (const child of element.children) stack.push([child, depth + 1]);
  }
  return false;
}

const HTML_TOO_DEEP =
  `What you pasted nests its HTML more than ${MAX_HTML_NESTING} elements deep; ` +
  `Inkwell reads at most ${MAX_HTML_NESTING}.`;

/** Options of {@link DepthLimit}. */
export interface DepthLimitOptions {
  /** Told, with a message for the writer, when a paste or drop was refused. */
  onRefused: (message: string) => void;
}

/**
 * What a transaction of this writer's that may nest blocks deeper is called in the message, or
 * null when it cannot (typing text, a change from the shared document, which the server checked).
 */
function deepeningOf(tr: Transaction): string | null {
  if (!tr.docChanged || isRemoteChange(tr)) return null;
  const uiEvent: unknown = tr.getMeta('uiEvent');
  if (uiEvent === 'drop') return 'What you dropped';
  if (uiEvent === 'paste' || tr.getMeta('paste') === true) return 'What you pasted';
  // Blocks nest deeper only where a step wraps (a quote, a list level by Tab) or inserts blocks;
  // text typed into a block is never measured.
  const mayDeepen = tr.steps.some(
    (step) =>
      step instanceof ReplaceAroundStep ||
      (step instanceof ReplaceStep && step.slice.content.content.some((node) => !node.isInline)),
  );
  return mayDeepen ? 'That change' : null;
}

/**
 * Refuses, whole, a paste, drop or edit of this writer's (a Tab in a list, a quote around a
 * quote) that would nest blocks deeper than a document may (docs/limits.md): the server would
 * refuse the change, and with it the editor's unsaved edits. Nothing of it is applied and the
 * writer is told why. HTML nested past {@link MAX_HTML_NESTING} is refused
 * before it is read.
 */
export const DepthLimit = Extension.create<DepthLimitOptions>({
  name: 'depthLimit',

  addOptions() {
    return { onRefused: () => undefined };
  },

  // Before Paste as Markdown's handler, so that a refused HTML paste is always answered here.
  priority: 1001,

  addProseMirrorPlugins() {
    const options = this.options;
    // Set when the HTML being pasted or dropped was found too deep; the handler that follows
    // the HTML's reading, always called next, reports it and inserts nothing.
    let refusedHtml = false;
    const takeRefusal = (): boolean => {
      const refused = refusedHtml;
      refusedHtml = false;
      if (refused) options.onRefused(HTML_TOO_DEEP);
      return refused;
    };
    return [
      new Plugin({
        key: new PluginKey('inkwellDepthLimit'),
        props: {
          transformPastedHTML: (html) => {
            refusedHtml = isHtmlTooDeep(html);
            return refusedHtml ? '' : html;
          },
          handlePaste: takeRefusal,
          handleDrop: takeRefusal,
        },
        filterTransaction: (tr) => {
          const what = deepeningOf(tr);
          const problem = what ? depthProblem(tr, what) : null;
          if (problem) options.onRefused(problem);
          return problem === null;
        },
      }),
    ];
  },
});
