import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import {
  NodeSelection,
  Plugin,
  PluginKey,
  TextSelection,
  type Transaction,
} from '@tiptap/pm/state';
import type { Mappable } from '@tiptap/pm/transform';
import type { EditorView } from '@tiptap/pm/view';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { indexFootnotes, type FootnoteIndex } from './footnoteNumbers.ts';

interface FootnoteState {
  index: FootnoteIndex;
  decorations: DecorationSet;
}

const key = new PluginKey<FootnoteState>('footnotes');

function build(doc: ProseMirrorNode): FootnoteState {
  const index = indexFootnotes(doc);
  const decorations: Decoration[] = [];
  for (const { pos, label } of index.refs) {
    const node = doc.nodeAt(pos)!;
    decorations.push(
      Decoration.node(pos, pos + node.nodeSize, {
        'data-number': String(index.numbers.get(label)),
        title: `Footnote ${label}: go to its text`,
      }),
    );
  }
  for (const { pos, number } of index.inline) {
    const node = doc.nodeAt(pos)!;
    decorations.push(Decoration.node(pos, pos + node.nodeSize, { 'data-number': String(number) }));
  }
  for (const [label, pos] of index.definitions) {
    const node = doc.nodeAt(pos)!;
    const number = index.numbers.get(label);
    decorations.push(
      Decoration.node(pos, pos + node.nodeSize, { 'data-number': number ? String(number) : '' }),
    );
    if (number) {
      decorations.push(
        Decoration.widget(pos + 1, backLink(label), { side: -1, key: `footnote-back:${label}` }),
      );
    }
  }
  return { index, decorations: DecorationSet.create(doc, decorations) };
}

/** The ↩ at the start of a definition, back to its first reference. */
function backLink(label: string) {
  return (view: EditorView) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'ink-footnote__back';
    button.contentEditable = 'false';
    button.textContent = '↩';
    button.setAttribute('aria-label', `Back to reference ${label}`);
    button.addEventListener('mousedown', (event) => {
      event.preventDefault();
      const ref = key.getState(view.state)?.index.refs.find((r) => r.label === label);
      if (!ref) return;
      view.dispatch(
        view.state.tr.setSelection(NodeSelection.create(view.state.doc, ref.pos)).scrollIntoView(),
      );
      view.focus();
    });
    return button;
  };
}

/** True when a change may have added or removed a footnote (so the numbers must be redone). */
function touchesFootnotes(doc: ProseMirrorNode, from: number, to: number): boolean {
  let found = false;
  doc.nodesBetween(from, Math.min(to, doc.content.size), (node) => {
    if (/^(?:footnoteRef|footnoteDefinition|inlineFootnote)$/.test(node.type.name)) found = true;
    return !found;
  });
  return found;
}

/** True when a change touched a footnote, before or after it (so the numbers must be redone). */
function changesFootnotes(tr: Transaction): boolean {
  const last = tr.mapping.maps.length - 1;
  let touched = false;
  tr.mapping.maps.forEach((map, i) => {
    const before = tr.docs[i]!;
    const after = i === last ? tr.doc : tr.docs[i + 1]!;
    map.forEach((oldFrom, oldTo, newFrom, newTo) => {
      touched ||=
        touchesFootnotes(before, oldFrom, oldTo) || touchesFootnotes(after, newFrom, newTo);
    });
  });
  return touched;
}

/** The index with every position moved through a change that touched no footnote. */
function mapIndex(index: FootnoteIndex, mapping: Mappable): FootnoteIndex {
  return {
    numbers: index.numbers,
    refs: index.refs.map((ref) => ({ ...ref, pos: mapping.map(ref.pos) })),
    definitions: new Map([...index.definitions].map(([label, pos]) => [label, mapping.map(pos)])),
    inline: index.inline.map((note) => ({ ...note, pos: mapping.map(note.pos) })),
  };
}

/**
 * Footnotes in the editor: each reference shows its number (by order of first reference), a
 * click on it goes to its definition, and the definition's ↩ goes back. The document is only
 * scanned again when a change touches a footnote; otherwise the numbers are moved along.
 */
export const footnotePlugin = () =>
  new Plugin<FootnoteState>({
    key,
    state: {
      init: (_config, state) => build(state.doc),
      apply(tr, old) {
        if (!tr.docChanged) return old;
        if (changesFootnotes(tr)) return build(tr.doc);
        const { refs, definitions, inline } = old.index;
        if (refs.length === 0 && definitions.size === 0 && inline.length === 0) return old;
        return {
          index: mapIndex(old.index, tr.mapping),
          decorations: old.decorations.map(tr.mapping, tr.doc),
        };
      },
    },
    props: {
      decorations: (state) => key.getState(state)?.decorations,
      handleClickOn(view, _pos, node) {
        if (node.type.name !== 'footnoteRef') return false;
        const target = key.getState(view.state)?.index.definitions.get(String(node.attrs.label));
        if (target === undefined) return false;
        const selection = TextSelection.near(view.state.doc.resolve(target + 1));
        view.dispatch(view.state.tr.setSelection(selection).scrollIntoView());
        return true;
      },
    },
  });
