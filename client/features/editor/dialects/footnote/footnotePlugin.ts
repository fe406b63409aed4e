import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { NodeSelection, Plugin, PluginKey, TextSelection } from '@tiptap/pm/state';
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
    if (number) decorations.push(Decoration.widget(pos + 1, backLink(label), { side: -1 }));
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

/**
 * Footnotes in the editor: each reference shows its number (by order of first reference), a
 * click on it goes to its definition, and the definition's ↩ goes back. A document without
 * footnotes is not scanned again on each keystroke, only the changed ranges are.
 */
export const footnotePlugin = () =>
  new Plugin<FootnoteState>({
    key,
    state: {
      init: (_config, state) => build(state.doc),
      apply(tr, old) {
        if (!tr.docChanged) return old;
        const { refs, definitions, inline } = old.index;
        if (refs.length > 0 || definitions.size > 0 || inline.length > 0) return build(tr.doc);
        let changed = false;
        tr.mapping.maps.forEach((map, i) => {
          map.forEach((_a, _b, from, to) => {
            if (changed) return;
            const doc = i === tr.mapping.maps.length - 1 ? tr.doc : tr.docs[i + 1]!;
            changed = touchesFootnotes(doc, from, to);
          });
        });
        return changed ? build(tr.doc) : old;
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
