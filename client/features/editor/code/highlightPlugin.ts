import type { Node as ProseMirrorNode, NodeType } from '@tiptap/pm/model';
import { Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { AttrStep } from '@tiptap/pm/transform';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import type { RootContent } from 'hast';
import { highlighterFor, onGrammarLoaded, requestGrammar } from './grammars.ts';
import { whenIdle } from '../../../lib/schedule.ts';
import { CHUNK_CLASS } from '../chunks/chunks.ts';
import { resolveCodeLanguage } from './languages.ts';

/** The plugin's key. */
export const codeHighlightKey = new PluginKey<HighlightState>('inkwellCodeHighlight');

/** Inline decorations with highlight.js token classes for one code block at `pos`. */
function decorateBlock(node: ProseMirrorNode, pos: number): Decoration[] {
  const language = resolveCodeLanguage(node.attrs.language as string | null);
  if (!language || node.content.size === 0) return [];
  const lowlight = highlighterFor(language.name);
  if (!lowlight) {
    // Asking from here keeps the plugin free of a separate scan; the load is idempotent and the
    // plugin view re-decorates when it lands.
    requestGrammar(language);
    return [];
  }
  const tree = lowlight.highlight(language.name, node.textContent);
  const decorations: Decoration[] = [];
  collect(tree.children, '', pos + 1, decorations);
  return decorations;
}

/** Walks lowlight's tree, giving each run of text the classes of all its enclosing spans. */
function collect(nodes: RootContent[], classes: string, start: number, out: Decoration[]): number {
  let pos = start;
  for (const node of nodes) {
    if (node.type === 'text') {
      const end = pos + node.value.length;
      if (classes && end > pos) out.push(Decoration.inline(pos, end, { class: classes }));
      pos = end;
    } else if (node.type === 'element') {
      const own = node.properties.className;
      const names = Array.isArray(own) ? own.map(String).join(' ') : '';
      pos = collect(node.children, [classes, names].filter(Boolean).join(' '), pos, out);
    }
  }
  return pos;
}

/**
 * Ranges of the new document that a transaction touched. An attribute change (such as a new
 * language) leaves no trace in the step maps, so AttrSteps are read one by one.
 */
function changedRanges(tr: Transaction): [number, number][] {
  const ranges: [number, number][] = [];
  tr.steps.forEach((step, index) => {
    const after = tr.mapping.slice(index + 1);
    if (step instanceof AttrStep) {
      const pos = after.map(step.pos);
      ranges.push([pos, pos + 1]);
      return;
    }
    step.getMap().forEach((_oldStart, _oldEnd, newStart, newEnd) => {
      ranges.push([after.map(newStart, -1), after.map(newEnd, 1)]);
    });
  });
  return ranges;
}

/** Code blocks that contain or overlap the changed ranges, each once. */
function touchedBlocks(tr: Transaction, type: NodeType) {
  const found = new Map<number, ProseMirrorNode>();
  const size = tr.doc.content.size;
  for (const [from, to] of changedRanges(tr)) {
    const start = Math.max(0, Math.min(from, size));
    const end = Math.min(size, Math.max(to, start + 1));
    if (start >= end) continue;
    tr.doc.nodesBetween(start, end, (node, pos) => {
      if (node.type === type) found.set(pos, node);
      return node.type !== type && !node.isTextblock;
    });
  }
  return found;
}

/** A few blocks are highlighted at once; more than this (an import, a paste) wait for idle time. */
const SYNC_BLOCKS = 20;
/** Milliseconds one idle slice may take in all: highlighting, then drawing the tokens found. */
const SLICE_MS = 10;
/** Bounds of the highlighting part of a slice. */
const MIN_HIGHLIGHT_MS = 1;
const MAX_HIGHLIGHT_MS = 8;
/** The first slice's: what drawing costs is not known yet (a slice that drew cheaply grows it). */
const FIRST_HIGHLIGHT_MS = 2;

/**
 * How long the next slice may highlight for, from how long this one highlighted and how long it
 * took in all. Drawing the tokens (the decoration set, then ProseMirror's DOM) can cost several
 * times the highlighting: token-dense code drew for ~40 ms after 8 ms of highlighting, a task
 * that held up a key typed meanwhile. The share of drawing is taken to stay what it just was.
 */
export function nextHighlightBudget(highlightMs: number, totalMs: number): number {
  if (highlightMs <= 0 || totalMs <= 0) return MAX_HIGHLIGHT_MS;
  const budget = highlightMs * (SLICE_MS / totalMs);
  return Math.min(MAX_HIGHLIGHT_MS, Math.max(MIN_HIGHLIGHT_MS, budget));
}

/** The plugin state: token decorations, and where highlighting still has to continue from. */
export interface HighlightState {
  decorations: DecorationSet;
  /** Position from which code blocks still wait to be highlighted; null when all are done. */
  pending: number | null;
  /** Counts the changes that left blocks to the slices (an import, a paste, a grammar loaded). */
  asked: number;
}

type HighlightMeta =
  | { kind: 'grammar'; loaded: string }
  | { kind: 'slice'; decorations: Decoration[]; next: number | null };

/** Highlights these blocks again, replacing their old decorations in one update of the set. */
function redecorate(
  set: DecorationSet,
  doc: ProseMirrorNode,
  blocks: Iterable<[number, ProseMirrorNode]>,
): DecorationSet {
  const stale: Decoration[] = [];
  const fresh: Decoration[] = [];
  for (const [pos, node] of blocks) {
    stale.push(...set.find(pos, pos + node.nodeSize));
    fresh.push(...decorateBlock(node, pos));
  }
  return set.remove(stale).add(doc, fresh);
}

/**
 * Highlights code blocks from `from` on for about `budget` ms; says where to go on. Blocks that
 * already carry decorations are left alone: theirs stay valid (mapped, and redone when the block
 * is edited), and keeping the very same decoration objects matters. ProseMirror keeps a block's
 * drawing when its new decorations are equal to the old, but then compares them attribute by
 * attribute on every later update; with a new grammar making every block new-but-equal, each
 * keystroke in a long document compared every token of every code block.
 */
function highlightSlice(
  doc: ProseMirrorNode,
  type: NodeType,
  set: DecorationSet,
  from: number,
  budget: number,
  to = doc.content.size,
) {
  const deadline = performance.now() + budget;
  const decorations: Decoration[] = [];
  let next: number | null = null;
  doc.nodesBetween(from, to, (node, pos) => {
    if (next !== null) return false;
    if (node.type !== type) return !node.isTextblock && !node.isAtom;
    if (pos >= from) {
      if (set.find(pos, pos + node.nodeSize).length === 0) {
        decorations.push(...decorateBlock(node, pos));
      }
      // Checked for skipped blocks too: a pass over thousands of them must still yield.
      if (performance.now() > deadline) next = pos + node.nodeSize;
    }
    return false;
  });
  return { decorations, next: next !== null && next < to ? next : null };
}

/**
 * Whether the browser says which parts of the document it draws: Chromium fires
 * `contentvisibilityautostatechange` on each chunk (`content-visibility: auto`, chunks/) as it
 * starts or stops drawing it. Elsewhere every code block is highlighted, in idle slices.
 */
const drawnPartsKnown = () =>
  typeof window !== 'undefined' && 'ContentVisibilityAutoStateChangeEvent' in window;

/** The event's own type, which TypeScript's DOM library may lack. */
type DrawnStateEvent = Event & { skipped?: boolean };

/**
 * The chunks drawn now, asked of the browser: the event says only what changes, and a chunk
 * whose element the editor kept (a document opened over the one shown) fires none.
 */
function drawnNow(view: EditorView): Set<Element> {
  const drawn = new Set<Element>();
  for (const element of view.dom.children) {
    if (!element.classList.contains(CHUNK_CLASS)) continue;
    const first = element.firstElementChild;
    if (first?.checkVisibility?.({ contentVisibilityAuto: true })) drawn.add(element);
  }
  return drawn;
}

/**
 * The ranges of the chunks the browser draws, and of the one holding the caret (always drawn):
 * where highlighting shows. A chunk element is found in the document by its position.
 */
function drawnRanges(view: EditorView, drawn: Set<Element>): [number, number][] {
  const ranges: [number, number][] = [];
  const add = (pos: number) => {
    const $pos = view.state.doc.resolve(pos);
    if ($pos.depth >= 1) ranges.push([$pos.before(1), $pos.after(1)]);
  };
  for (const element of drawn) {
    if (!element.isConnected || !view.dom.contains(element)) {
      drawn.delete(element);
      continue;
    }
    try {
      add(view.posAtDOM(element, 0));
    } catch {
      drawn.delete(element);
    }
  }
  add(view.state.selection.head);
  return ranges.sort((a, b) => a[0] - b[0]);
}

/**
 * Syntax highlighting for code blocks of `type`. Grammars load on demand; decorations are
 * mapped through each transaction and only the code blocks it touched are highlighted again,
 * so typing costs nothing outside code and one block's highlight inside it. A change that
 * touches many blocks (an imported file) is highlighted in idle-time slices after it is shown,
 * where the browser draws it when the browser says where that is.
 */
export function codeHighlightPlugin(type: NodeType): Plugin<HighlightState> {
  return new Plugin<HighlightState>({
    key: codeHighlightKey,
    state: {
      init: () => ({ decorations: DecorationSet.empty, pending: 0, asked: 0 }),
      apply: (tr, { decorations, pending, asked }) => {
        let set = tr.docChanged ? decorations.map(tr.mapping, tr.doc) : decorations;
        let next = pending === null ? null : tr.mapping.map(pending, -1);
        if (tr.docChanged) {
          const touched = touchedBlocks(tr, type);
          if (touched.size <= SYNC_BLOCKS) {
            set = redecorate(set, tr.doc, touched);
          } else {
            // Left to the idle slices, which skip decorated blocks: drop what these had.
            set = set.remove(
              [...touched].flatMap(([pos, node]) => set.find(pos, pos + node.nodeSize)),
            );
            const first = Math.min(...touched.keys());
            next = next === null ? first : Math.min(next, first);
            asked += 1;
          }
        }
        const meta = tr.getMeta(codeHighlightKey) as HighlightMeta | undefined;
        if (meta?.kind === 'grammar') {
          next = 0;
          asked += 1;
        }
        // A slice only decorates blocks that had no decorations: nothing to remove first.
        if (meta?.kind === 'slice') {
          set = set.add(tr.doc, meta.decorations);
          next = meta.next;
        }
        return { decorations: set, pending: next, asked };
      },
    },
    props: {
      decorations: (state) => codeHighlightKey.getState(state)?.decorations,
    },
    view: (view) => {
      let cancel: (() => void) | null = null;
      let budget = FIRST_HIGHLIGHT_MS;
      /**
       * The chunk elements the browser draws, once it has said so: then only the code there is
       * highlighted, and the rest when it comes into view. A long document's code (1.2 MB of
       * READMEs: thousands of blocks) is otherwise highlighted for seconds after it opens, in
       * slices that a keystroke can land behind, in every tab that has it open.
       */
      let drawn: Set<Element> | null = null;
      const known = drawnPartsKnown();
      /**
       * Set when a run found the drawn parts all highlighted, to the state's `asked` then: no
       * more runs (one per keystroke otherwise) until more is asked or another chunk is drawn.
       */
      let doneFor: number | null = null;
      /** Where the drawn parts' code waits, or null when all of it is highlighted. */
      const drawnSlice = (decorations: DecorationSet) => {
        const found: Decoration[] = [];
        const deadline = performance.now() + budget;
        for (const [from, to] of drawnRanges(view, drawn!)) {
          const left = deadline - performance.now();
          if (left <= 0) return { decorations: found, more: true };
          const slice = highlightSlice(view.state.doc, type, decorations, from, left, to);
          found.push(...slice.decorations);
          if (slice.next !== null) return { decorations: found, more: true };
        }
        return { decorations: found, more: false };
      };
      const run = () => {
        cancel = null;
        const pending = codeHighlightKey.getState(view.state)?.pending;
        if (pending === null || pending === undefined) return;
        const { doc } = view.state;
        const decorations = codeHighlightKey.getState(view.state)?.decorations;
        if (!decorations) return;
        const start = performance.now();
        if (known) drawn ??= drawnNow(view);
        let meta: HighlightMeta;
        let more: boolean;
        if (drawn) {
          // What is not drawn stays pending; the next chunk drawn asks for another run.
          const slice = drawnSlice(decorations);
          meta = { kind: 'slice', decorations: slice.decorations, next: pending };
          more = slice.more;
        } else {
          const slice = highlightSlice(doc, type, decorations, pending, budget);
          meta = { kind: 'slice', decorations: slice.decorations, next: slice.next };
          more = slice.next !== null;
        }
        const highlighted = performance.now();
        if (meta.decorations.length > 0 || !drawn) {
          view.dispatch(
            view.state.tr.setMeta(codeHighlightKey, meta).setMeta('addToHistory', false),
          );
          budget = nextHighlightBudget(highlighted - start, performance.now() - start);
        }
        if (drawn && !more && meta.decorations.length === 0) {
          doneFor = codeHighlightKey.getState(view.state)?.asked ?? null;
        }
        if (drawn && more) schedule();
      };
      const schedule = () => {
        const state = codeHighlightKey.getState(view.state);
        if (cancel || !state || state.pending === null || doneFor === state.asked) return;
        cancel = whenIdle(run, 500);
      };
      const onDrawnState = (event: DrawnStateEvent) => {
        const target = event.target;
        if (!(target instanceof Element) || !target.classList.contains(CHUNK_CLASS)) return;
        drawn ??= drawnNow(view);
        if (event.skipped) {
          drawn.delete(target);
          return;
        }
        drawn.add(target);
        doneFor = null;
        schedule();
      };
      // Captured: the event does not bubble up from the chunk.
      if (known) {
        view.dom.addEventListener('contentvisibilityautostatechange', onDrawnState, true);
      }
      const unsubscribe = onGrammarLoaded((name) => {
        const meta: HighlightMeta = { kind: 'grammar', loaded: name };
        view.dispatch(view.state.tr.setMeta(codeHighlightKey, meta).setMeta('addToHistory', false));
      });
      schedule();
      return {
        update: schedule,
        destroy: () => {
          unsubscribe();
          cancel?.();
          view.dom.removeEventListener('contentvisibilityautostatechange', onDrawnState, true);
        },
      };
    },
  });
}
