import type { Editor } from '@tiptap/core';
import { useEffect, useRef } from 'react';
import type { MenuRequestHandler } from './MenuShortcuts.ts';

/**
 * Answers the Mod+K and Alt+F10 requests of {@link MenuShortcuts} while the calling menu is
 * mounted. Without that extension in the editor the shortcuts simply do nothing.
 */
export function useMenuRequests(editor: Editor, handler: MenuRequestHandler): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const handlers = editor.storage.menuShortcuts?.handlers;
    if (!handlers) return;
    const forward: MenuRequestHandler = (request) => latest.current(request);
    handlers.add(forward);
    return () => {
      handlers.delete(forward);
    };
  }, [editor]);
}
