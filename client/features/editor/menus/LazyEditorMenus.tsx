import type { Editor } from '@tiptap/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { MenuRequest, MenuRequestHandler } from './MenuShortcuts.ts';

const loadMenus = () => import('./EditorMenus.tsx');
const EditorMenus = lazy(() => loadMenus().then((m) => ({ default: m.EditorMenus })));

/** Whether the selection is one a bubble menu shows for: a range of text, or an image or video. */
const needsMenu = (editor: Editor) => !editor.state.selection.empty;

/**
 * The bubble menus (and floating-ui beneath them) load at their first need, not with the page:
 * the first selection, or Mod+K or Alt+F10. The code is fetched as soon as the writer presses in
 * the text or holds Shift, so that it is there by the time a selection is made. Mounting them
 * registers their plugins, which recreates the editor's plugin views; no slash menu is open then,
 * since it lives on an empty selection and a shortcut.
 */
export function LazyEditorMenus({ editor }: { editor: Editor }) {
  const [needed, setNeeded] = useState(() => needsMenu(editor));
  const [replay, setReplay] = useState<MenuRequest | null>(null);

  useEffect(() => {
    if (needed) return;
    const dom = editor.view.dom;
    const prefetch = () => void loadMenus().catch(() => undefined);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.shiftKey || event.ctrlKey || event.metaKey) prefetch();
    };
    const onSelectionUpdate = () => {
      if (needsMenu(editor)) setNeeded(true);
    };
    // Answers Mod+K and Alt+F10 until the menus are there, and asks them again once they are.
    const handlers = editor.storage.menuShortcuts?.handlers;
    const stand: MenuRequestHandler = (request) => {
      setReplay(request);
      setNeeded(true);
      return true;
    };
    handlers?.add(stand);
    dom.addEventListener('pointerdown', prefetch, { once: true });
    dom.addEventListener('keydown', onKeyDown);
    editor.on('selectionUpdate', onSelectionUpdate);
    return () => {
      handlers?.delete(stand);
      dom.removeEventListener('pointerdown', prefetch);
      dom.removeEventListener('keydown', onKeyDown);
      editor.off('selectionUpdate', onSelectionUpdate);
    };
  }, [editor, needed]);

  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <EditorMenus editor={editor} />
      <Replay editor={editor} request={replay} />
    </Suspense>
  );
}

/** Asks the request that woke the menus again, now that they answer it (their effects ran first). */
function Replay({ editor, request }: { editor: Editor; request: MenuRequest | null }) {
  useEffect(() => {
    if (request === 'link') editor.commands.openLinkEditor();
    if (request === 'focus') editor.commands.focusBubbleMenu();
  }, [editor, request]);
  return null;
}
