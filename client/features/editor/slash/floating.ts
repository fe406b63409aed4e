import {
  autoUpdate,
  computePosition,
  flip,
  offset,
  shift,
  type Placement,
  type VirtualElement,
} from '@floating-ui/dom';
import type { EditorView } from '@tiptap/pm/view';

/**
 * Keeps `element` (already in the document) next to a rectangle such as the cursor, flipping
 * and shifting to stay on screen, and following scrolls and resizes. Returns the stop function.
 */
export function floatNextTo(
  element: HTMLElement,
  getRect: () => DOMRect | null,
  contextElement: Element,
  placement: Placement = 'bottom-start',
): () => void {
  let last = new DOMRect();
  const reference: VirtualElement = {
    // The cursor's decoration can vanish for a moment while the text changes: keep the last rect.
    getBoundingClientRect: () => (last = getRect() ?? last),
    contextElement,
  };
  Object.assign(element.style, { position: 'fixed', left: '0', top: '0', visibility: 'hidden' });
  const update = () => {
    void computePosition(reference, element, {
      placement,
      strategy: 'fixed',
      middleware: [offset(6), flip({ padding: 8 }), shift({ padding: 8 })],
    }).then(({ x, y }) => {
      Object.assign(element.style, { left: `${x}px`, top: `${y}px`, visibility: '' });
    });
  };
  return autoUpdate(reference, element, update);
}

/** The rectangle of the cursor at `pos`, clamped to the document. */
export function caretRect(view: EditorView, pos: number): DOMRect {
  const coords = view.coordsAtPos(Math.min(pos, view.state.doc.content.size));
  return new DOMRect(coords.left, coords.top, 0, coords.bottom - coords.top);
}
