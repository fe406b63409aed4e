import type { Node as ProseMirrorNode, NodeType } from '@tiptap/pm/model';
import { Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { AttrStep } from '@tiptap/pm/transform';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { RootContent } from 'hast';
import { highlighterFor, onGrammarLoaded, requestGrammar } from './grammars.ts';
import { resolveCodeLanguage } from './languages.ts';

/** The plugin's key; its state is the set of token decorations. */
export const codeHighlightKey = new PluginKey<DecorationSet>('inkwellCodeHighlight');

interface GrammarLoadedMeta {
  loaded: string;
}

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

/** Every code block of `doc` (optionally only those of one grammar), without entering text. */
function codeBlocks(doc: ProseMirrorNode, type: NodeType, grammar?: string) {
  const found: { node: ProseMirrorNode; pos: number }[] = [];
  doc.descendants((node, pos) => {
    if (node.type === type) {
      const name = resolveCodeLanguage(node.attrs.language as string | null)?.name;
      if (!grammar || name === grammar) found.push({ node, pos });
    }
    return !node.isTextblock && !node.isAtom;
  });
  return found;
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

function redecorate(
  set: DecorationSet,
  doc: ProseMirrorNode,
  blocks: Iterable<[number, ProseMirrorNode]>,
) {
  let next = set;
  for (const [pos, node] of blocks) {
    next = next.remove(next.find(pos, pos + node.nodeSize));
    next = next.add(doc, decorateBlock(node, pos));
  }
  return next;
}

/**
 * Syntax highlighting for code blocks of `type`. Grammars load on demand; decorations are
 * mapped through each transaction and only the code blocks it touched are highlighted again,
 * so typing costs nothing outside code and one block's highlight inside it.
 */
export function codeHighlightPlugin(type: NodeType): Plugin<DecorationSet> {
  return new Plugin<DecorationSet>({
    key: codeHighlightKey,
    state: {
      init: (_config, state) =>
        DecorationSet.create(
          state.doc,
          codeBlocks(state.doc, type).flatMap(({ node, pos }) => decorateBlock(node, pos)),
        ),
      apply: (tr, set) => {
        let next = tr.docChanged ? set.map(tr.mapping, tr.doc) : set;
        if (tr.docChanged) next = redecorate(next, tr.doc, touchedBlocks(tr, type));
        const meta = tr.getMeta(codeHighlightKey) as GrammarLoadedMeta | undefined;
        if (meta) {
          const blocks = codeBlocks(tr.doc, type, meta.loaded);
          next = redecorate(
            next,
            tr.doc,
            blocks.map(({ node, pos }) => [pos, node]),
          );
        }
        return next;
      },
    },
    props: {
      decorations: (state) => codeHighlightKey.getState(state),
    },
    view: (view) => {
      const unsubscribe = onGrammarLoaded((name) => {
        const meta: GrammarLoadedMeta = { loaded: name };
        view.dispatch(view.state.tr.setMeta(codeHighlightKey, meta).setMeta('addToHistory', false));
      });
      return { destroy: unsubscribe };
    },
  });
}
