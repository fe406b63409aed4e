import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

const key = new PluginKey<DecorationSet>('mermaid');

const isMermaid = (node: ProseMirrorNode) =>
  node.type.name === 'codeBlock' &&
  String(node.attrs.language ?? '')
    .trim()
    .split(/\s/)[0] === 'mermaid';

/** How far outside the viewport a diagram starts to be drawn: a screen's height either way. */
const NEAR = '100% 0px';

/**
 * Calls `draw` once `element` comes within a screen of the viewport: mermaid's module takes a
 * task of about 70 ms to start, which a document opened or imported with a diagram far below
 * made the writer's first keys wait for. Where there is no IntersectionObserver, at once.
 */
function whenNear(element: HTMLElement, draw: () => void): void {
  if (typeof IntersectionObserver === 'undefined') {
    draw();
    return;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      draw();
    },
    { rootMargin: NEAR },
  );
  observer.observe(element);
}

/**
 * The diagram drawn from `code`, below its code block, once it is near the viewport; drawn once
 * per distinct code.
 */
function diagram(code: string): HTMLElement {
  const figure = document.createElement('div');
  figure.className = 'ink-mermaid';
  figure.contentEditable = 'false';
  figure.setAttribute('role', 'img');
  figure.setAttribute('aria-label', 'Mermaid diagram');
  figure.textContent = 'Drawing the diagram…';
  whenNear(figure, () => {
    import('./drawDiagram.ts')
      .then(({ drawDiagram }) => drawDiagram(figure, code))
      .then(
        () => undefined,
        () => {
          figure.classList.add('ink-mermaid--error');
          figure.textContent = 'This diagram has an error; its code is kept as written.';
        },
      );
  });
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

/** Whether a diagram's code block lies in `from`..`to` of `doc` (or holds that stretch). */
function touchesDiagram(doc: ProseMirrorNode, from: number, to: number): boolean {
  let found = false;
  doc.nodesBetween(from, Math.min(to, doc.content.size), (node) => {
    if (isMermaid(node)) found = true;
    return !found && !node.isTextblock;
  });
  return found;
}

/**
 * Whether `tr` may have made, changed or removed a diagram: a step whose stretch held one
 * before or holds one after, or a step that moves nothing (attributes, marks), which is rare
 * enough to look again.
 */
function touchesDiagrams(tr: Transaction): boolean {
  return tr.steps.some((step, i) => {
    const before = tr.docs[i]!;
    const after = tr.docs[i + 1] ?? tr.doc;
    let ranges = 0;
    let found = false;
    step.getMap().forEach((oldStart, oldEnd, newStart, newEnd) => {
      ranges += 1;
      found ||= touchesDiagram(before, oldStart, oldEnd) || touchesDiagram(after, newStart, newEnd);
    });
    return found || ranges === 0;
  });
}

/**
 * Mermaid code blocks drawn as diagrams below their code, which stays an ordinary editable code
 * block (and is exported as written). The document is looked at again only where it changed.
 */
export const mermaidPlugin = () =>
  new Plugin<DecorationSet>({
    key,
    state: {
      init: (_config, state) => build(state.doc),
      apply(tr, old) {
        if (!tr.docChanged) return old;
        // A keystroke elsewhere moves the diagrams with the text: mapped, not looked for again
        // in the whole document (a long one with diagrams did that on every key).
        return touchesDiagrams(tr) ? build(tr.doc) : old.map(tr.mapping, tr.doc);
      },
    },
    props: {
      decorations: (state) => key.getState(state),
    },
  });
