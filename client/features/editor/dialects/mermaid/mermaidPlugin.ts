import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { isApplePlatform } from '../../../../lib/platform.ts';

const key = new PluginKey<DecorationSet>('mermaid');

const isMermaid = (node: ProseMirrorNode) =>
  node.type.name === 'codeBlock' &&
  String(node.attrs.language ?? '')
    .trim()
    .split(/\s/)[0] === 'mermaid';

/** How far outside the viewport a diagram starts to be drawn: a screen's height either way. */
const NEAR = '100% 0px';

/** The class of a diagram not drawn yet, far from the viewport. */
const WAITING = 'ink-mermaid--waiting';

/** What draws each diagram still waiting (by its element: nothing kept once it is gone). */
const drawers = new WeakMap<HTMLElement, () => Promise<void>>();

/**
 * Calls `draw` once `element` comes within a screen of the viewport, or at once when the page is
 * to be printed ({@link drawWaitingDiagrams}): mermaid's module takes a task of about 70 ms to
 * start, which a document opened or imported with a diagram far below made the writer's first
 * keys wait for. Where there is no IntersectionObserver, at once.
 */
function whenNear(element: HTMLElement, draw: () => Promise<void>): void {
  if (typeof IntersectionObserver === 'undefined') {
    void draw();
    return;
  }
  const start = () => {
    observer.disconnect();
    drawers.delete(element);
    element.classList.remove(WAITING);
    return draw();
  };
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void start();
    },
    { rootMargin: NEAR },
  );
  element.classList.add(WAITING);
  drawers.set(element, start);
  observer.observe(element);
}

/** Draws every diagram of the page still waiting to come near the viewport; settles when all have. */
export async function drawWaitingDiagrams(): Promise<void> {
  const draws: Promise<void>[] = [];
  for (const figure of document.querySelectorAll<HTMLElement>(`.${WAITING}`)) {
    const draw = drawers.get(figure);
    if (draw) draws.push(draw());
  }
  await Promise.allSettled(draws);
}

/**
 * Mod-P prints the document with every diagram drawn: the ones far below are drawn first (the
 * browser's print would show "Drawing the diagram…" in their place), then the page is printed.
 * With none waiting, the browser prints as it would. Printing from the browser's menu cannot
 * wait; it starts them, for the print after.
 */
function printWithDiagrams(event: KeyboardEvent): void {
  // Every key passes here: the cheap tests first.
  if (event.defaultPrevented || (event.key !== 'p' && event.key !== 'P')) return;
  if (event.shiftKey || event.altKey || !(isApplePlatform() ? event.metaKey : event.ctrlKey))
    return;
  if (!document.querySelector(`.${WAITING}`)) return;
  event.preventDefault();
  void drawWaitingDiagrams().then(() => window.print());
}

/** The diagram drawn from `code`, below its code block, once it is near the viewport. */
function diagram(code: string): HTMLElement {
  const figure = document.createElement('div');
  figure.className = 'ink-mermaid';
  figure.contentEditable = 'false';
  figure.setAttribute('role', 'img');
  figure.setAttribute('aria-label', 'Mermaid diagram');
  figure.textContent = 'Drawing the diagram…';
  whenNear(figure, () =>
    import('./drawDiagram.ts')
      .then(({ drawDiagram }) => drawDiagram(figure, code))
      .then(
        () => undefined,
        () => {
          figure.classList.add('ink-mermaid--error');
          figure.textContent = 'This diagram has an error; its code is kept as written.';
        },
      ),
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
    view() {
      // Each editor its own listeners (the first to see Mod-P handles it): one editor going away
      // leaves the others' in place.
      const onKeyDown = (event: KeyboardEvent) => printWithDiagrams(event);
      const onBeforePrint = () => void drawWaitingDiagrams();
      window.addEventListener('keydown', onKeyDown, true);
      window.addEventListener('beforeprint', onBeforePrint);
      return {
        destroy() {
          window.removeEventListener('keydown', onKeyDown, true);
          window.removeEventListener('beforeprint', onBeforePrint);
        },
      };
    },
  });
