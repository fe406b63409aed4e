import type { Editor } from '@tiptap/core';
import { AllSelection, NodeSelection, TextSelection, type EditorState } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { useEffect, type FocusEvent, type MouseEvent, type RefObject } from 'react';

/** The BubbleMenu plugin's own requests, sent as transaction metadata under its key. */
export type BubbleRequest = 'show' | 'hide' | 'updatePosition';

/** Asks the BubbleMenu registered under `pluginKey` to show, hide or re-measure itself. */
export function sendBubbleRequest(editor: Editor, pluginKey: string, request: BubbleRequest) {
  if (editor.isDestroyed) return;
  editor.view.dispatch(editor.state.tr.setMeta(pluginKey, request));
}

/**
 * True for a selection the text toolbar applies to: some text, outside code blocks. Node, cell
 * and empty selections are not. Reads only the selected range.
 */
export function isFormattableSelection(state: EditorState): boolean {
  const { selection, doc } = state;
  if (!(selection instanceof TextSelection || selection instanceof AllSelection)) return false;
  if (selection.empty) return false;
  if (selection.$from.parent.type.spec.code || selection.$to.parent.type.spec.code) return false;
  return doc.textBetween(selection.from, selection.to).length > 0;
}

/** The media node a NodeSelection holds, if it is one the media menu edits. */
export function selectedMediaNode(state: EditorState) {
  const { selection } = state;
  if (!(selection instanceof NodeSelection)) return null;
  return MEDIA_TYPES.has(selection.node.type.name) ? selection.node : null;
}

/** The node types that get the media menu. */
export const MEDIA_TYPES: ReadonlySet<string> = new Set(['image', 'inlineImage', 'youtube']);

/**
 * True when the editor or the menu element holds focus: the menus show only then. Takes the
 * plugin's own view, not `editor.view`: Tiptap's BubbleMenu asks again 250 ms after a selection
 * changes even when the editor was destroyed meanwhile (its destroy() does not clear that timer),
 * and `editor.view` of an unmounted editor throws on `hasFocus`.
 */
export function editorOrMenuHasFocus(view: EditorView, element: HTMLElement): boolean {
  if (view.isDestroyed) return false;
  return view.hasFocus() || element.contains(document.activeElement);
}

/**
 * Mouse and touch presses on a menu's buttons must not take focus from the text, or the
 * selection they act on would be lost. Fields still take focus so that people can type.
 */
export function keepEditorFocus(event: MouseEvent) {
  const target = event.target;
  if (target instanceof Element && target.closest('input, textarea, select, label')) return;
  event.preventDefault();
}

/** Re-measures the BubbleMenu whenever its content changes size (panels, errors, lazy parts). */
export function useBubbleResize(
  editor: Editor,
  pluginKey: string,
  ref: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() =>
      sendBubbleRequest(editor, pluginKey, 'updatePosition'),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [editor, pluginKey, ref]);
}

/**
 * Hides the BubbleMenu when the pointer goes down outside both it and the text. The plugin hides
 * on editor blur, but skips the first blur after any press inside the menu, and presses inside
 * never blur the editor here (see {@link keepEditorFocus}), so that skip would linger.
 */
export function useHideOnOutsidePress(
  editor: Editor,
  pluginKey: string,
  ref: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      const menu = ref.current;
      const target = event.target;
      if (!menu?.isConnected || !(target instanceof Node) || editor.isDestroyed) return;
      if (menu.contains(target) || editor.view.dom.contains(target)) return;
      sendBubbleRequest(editor, pluginKey, 'hide');
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => document.removeEventListener('pointerdown', onPointerDown, true);
  }, [editor, pluginKey, ref]);
}

/**
 * A bubble menu's blur handler: when focus leaves both the menu and the editor, `hide` runs.
 * Focus also leaves when the plugin itself detaches the menu, so the check waits until then.
 */
export function hideWhenFocusLeaves(
  event: FocusEvent,
  editor: Editor,
  content: RefObject<HTMLElement | null>,
  hide: () => void,
): void {
  const next = event.relatedTarget;
  if (
    next instanceof Node &&
    (event.currentTarget.contains(next) || editor.view.dom.contains(next))
  )
    return;
  setTimeout(() => {
    if (editor.isDestroyed || editor.view.hasFocus()) return;
    if (content.current?.contains(document.activeElement)) return;
    hide();
  });
}
