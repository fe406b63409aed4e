import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

const key = new PluginKey<DecorationSet>('mermaid');

const isMermaid = (node: ProseMirrorNode) =>
  node.type.name === 'codeBlock' &&
  String(node.attrs.language ?? '')
    .trim()
    .split(/\s/)[0] === 'mermaid';

/** The diagram drawn from `code`, below its code block; drawn once per distinct code. */
function diagram(code: string): HTMLElement {
  const figure = document.createElement('div');
  figure.className = 'ink-mermaid';
  figure.contentEditable = 'false';
  figure.setAttribute('role', 'img');
  figure.setAttribute('aria-label', 'Mermaid diagram');
  figure.textContent = 'Drawing the diagram…';
  import('./drawDiagram.ts')
    .then(({ drawDiagram }) => drawDiagram(figure, code))
    .then(
      () => undefined,
      () => {
        figure.classList.add('ink-mermaid--error');
        figure.textContent = 'This diagram has an error; its code is kept as written.';
      },
    );
  return figure;
}

function build(doc: ProseMirrorNode): DecorationSet {
  const widgets: Decoration[] = [];
  doc.descendants((node, pos) => {
    if (isMermaid(node) && node.textContent.trim() !== '') {
      const code = node.textContent;
      widgets.push(
        Decoration.widget(pos + node.nodeSize, () => diagram(code), {
          side: 1,
          key: `mermaid:${code}`,
          ignoreSelection: true,
          stopEvent: () => true,
        }),
      );
    }
    return !node.isTextblock;
  });
  return widgets.length > 0 ? DecorationSet.create(doc, widgets) : DecorationSet.empty;
}

/** True when a change touched a code block (which may be or become a diagram). */
function touchesCode(doc: ProseMirrorNode, from: number, to: number): boolean {
  let found = false;
  doc.nodesBetween(from, Math.min(to, doc.content.size), (node) => {
    if (node.type.name === 'codeBlock') found = true;
    return !found;
  });
  return found;
}

/**
 * Mermaid code blocks drawn as diagrams below their code, which stays an ordinary editable code
 * block (and is exported as written). A document without diagrams is only looked at where it
 * changed.
 */
export const mermaidPlugin = () =>
  new Plugin<DecorationSet>({
    key,
    state: {
      init: (_config, state) => build(state.doc),
      apply(tr, old) {
        if (!tr.docChanged) return old;
        if (old !== DecorationSet.empty) return build(tr.doc);
        let changed = false;
        tr.mapping.maps.forEach((map, i) => {
          map.forEach((_a, _b, from, to) => {
            if (changed) return;
            const doc = i === tr.mapping.maps.length - 1 ? tr.doc : tr.docs[i + 1]!;
            changed = touchesCode(doc, from, to);
          });
        });
        return changed ? build(tr.doc) : old;
      },
    },
    props: {
      decorations: (state) => key.getState(state),
    },
  });
