import type { Editor } from '@tiptap/core';
import { useEffect, useRef, useState } from 'react';
import { createObservable, type Observable } from '../../../lib/observable.ts';
import { saveLocalDocument } from './documentStore.ts';
import { SaveScheduler, type SaveState } from './SaveScheduler.ts';
import { serializeDoc } from './serializeDoc.ts';

/** Where the document stands with respect to the device copy. */
export type LocalSaveState = SaveState | 'unavailable';

/**
 * Keeps the open document saved on this device: about a second after typing pauses, at most
 * five seconds after an edit, and at once when the page is hidden or closed. The document is
 * serialised only when a save runs, never per keystroke, and then only its changed blocks.
 * Returns the save state (observed, not React state, so a save never re-renders the page) and a
 * function to call when the title changes. With `enabled` false nothing is saved (state
 * `unavailable`).
 */
export function useLocalAutosave(editor: Editor, getTitle: () => string, enabled = true) {
  const [state] = useState(() => createObservable<LocalSaveState>('saved'));
  const scheduler = useRef<SaveScheduler | null>(null);

  useEffect(() => {
    if (!enabled) {
      state.set('unavailable');
      return;
    }
    state.set('saved');
    let saved = { doc: editor.state.doc, title: getTitle() };
    const instance = new SaveScheduler({
      save: async () => {
        const current = { doc: editor.state.doc, title: getTitle() };
        // Undo back to the saved state, or a no-op transaction, needs no write.
        if (current.doc === saved.doc && current.title === saved.title) return;
        await saveLocalDocument({
          title: current.title,
          json: serializeDoc(current.doc),
          updatedAt: Date.now(),
        });
        saved = current;
      },
      onState: (next) => state.set(next),
    });
    scheduler.current = instance;

    const onUpdate = () => instance.markDirty();
    const flush = () => void instance.flush();
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!instance.hasUnsavedChanges) return;
      flush();
      // The write may not finish before the page goes; ask the browser to confirm leaving.
      event.preventDefault();
    };

    editor.on('update', onUpdate);
    window.addEventListener('pagehide', flush);
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      editor.off('update', onUpdate);
      window.removeEventListener('pagehide', flush);
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('visibilitychange', onVisibility);
      void instance.flush().finally(() => instance.dispose());
      scheduler.current = null;
    };
  }, [editor, getTitle, enabled, state]);

  return {
    /** Where the document stands with respect to the device copy. */
    state: state as Observable<LocalSaveState>,
    /** Records a title change, which is saved like an edit. */
    titleChanged: () => scheduler.current?.markDirty(),
  };
}
