import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DocumentRecord, SaveResult } from '../../../../common/api/documents.ts';
import { createObservable, type Observable } from '../../../lib/observable.ts';
import { saveDocument } from '../../documents/documentsApi.ts';
import { pendingDocuments } from '../../documents/pendingDocuments.ts';
import { Autosave } from './Autosave.ts';
import type { Snapshot } from './AutosaveOptions.ts';
import { idbDraftStore } from './idbDraftStore.ts';
import { addLiveSave, removeLiveSave } from './liveSaves.ts';
import type { OpenedDocument } from './openDocument.ts';
import type { SaveStatus } from './saveStatus.ts';
import { serializeDoc } from './serializeDoc.ts';
import { changedContent } from '../chunks/chunks.ts';

/** What the page hears from its autosave. */
export interface AutosaveHandlers {
  /** A save met another version (HTTP 409). */
  onConflict: (current: DocumentRecord) => void;
  /** The server acknowledged a save. */
  onSaved: (snapshot: Snapshot<ProseMirrorNode>, result: SaveResult) => void;
}

/**
 * Saves the open document to the server and its drafts to this device (see {@link Autosave}).
 * Returns the status (an observable, not React state: a save never re-renders the page), the
 * function to call when the title changes, and the autosave itself for conflict choices.
 */
export function useAutosave(
  editor: Editor,
  opened: OpenedDocument,
  getTitle: () => string,
  handlers: AutosaveHandlers,
) {
  const [status] = useState(() => createObservable<SaveStatus>({ kind: 'saved' }));
  const latest = useRef(handlers);
  const entry = useRef<{ autosave: Autosave<ProseMirrorNode>; detaching?: number } | null>(null);

  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    let current = entry.current;
    // StrictMode unmounts and mounts again at once: the same autosave carries on.
    if (current?.detaching !== undefined) window.clearTimeout(current.detaching);
    if (!current) {
      const id = opened.record.id;
      const autosave: Autosave<ProseMirrorNode> = new Autosave({
        documentId: id,
        baseVersion: opened.baseVersion,
        // A restored draft differs from the server's copy, so its first save sends everything.
        saved: opened.restoredChange > 0 ? null : { title: opened.title, doc: editor.state.doc },
        restoredChange: opened.restoredChange,
        conflicted: opened.conflict !== null,
        read: () => ({ title: getTitle(), doc: editor.state.doc }),
        serialize: serializeDoc,
        send: (request, keepalive) => saveDocument(id, request, keepalive),
        create: opened.creating ? (keepalive) => pendingDocuments.send(id, keepalive) : undefined,
        drafts: idbDraftStore,
        onStatus: (next) => status.set(next),
        onConflict: (record) => latest.current.onConflict(record),
        onSaved: (snapshot, result) => latest.current.onSaved(snapshot, result),
        onDisposed: () => removeLiveSave(id, autosave),
      });
      addLiveSave(id, autosave);
      current = { autosave };
      entry.current = current;
    }
    const held = current;
    const onUpdate = (update: Parameters<typeof changedContent>[0]) => {
      if (changedContent(update)) held.autosave.edit();
    };
    editor.on('update', onUpdate);
    return () => {
      editor.off('update', onUpdate);
      const last = { title: getTitle(), doc: editor.state.doc };
      held.detaching = window.setTimeout(() => {
        if (entry.current === held) entry.current = null;
        // Unsaved edits go on being saved after the editor has gone.
        held.autosave.detach(last);
      }, 0);
    };
  }, [editor, opened, getTitle, status]);

  const titleChanged = useCallback(() => entry.current?.autosave.edit(), []);
  const autosave = useCallback(() => entry.current?.autosave ?? null, []);

  return {
    /** Where the document stands with respect to the server. */
    status: status as Observable<SaveStatus>,
    /** Records a title change, which is saved like an edit. */
    titleChanged,
    /** The running autosave, for the conflict choices. */
    autosave,
  };
}
