import { Extension, type Content } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import * as Y from 'yjs';
import { ChunkedYBinding, isRemoteChange, UNDO_CHANGE } from './ChunkedYBinding.ts';
import type { RepairReport } from '../../../../common/editor/collab/yToProsemirror.ts';
import { buildWith, unbuiltContent } from './madeFrom.ts';
import { keepOthersWork } from './undoScope.ts';

/** Options of {@link Collaboration}. */
export interface CollaborationOptions {
  /** The shared document's content: the unchunked ProseMirror document (XmlFragment `default`). */
  fragment: Y.XmlFragment | null;
  /** Told when a remote change held something the schema refuses, and was repaired. */
  onRepair?: RepairReport;
  /**
   * The editor is created empty and its document opened (openWhenMounted.ts) once
   * EditorContent has mounted the view: mounting makes ProseMirror draw the whole document again
   * (Editor.tsx, OpenOnceMounted). Off, the document is there from the editor's creation.
   */
  openWhenMounted?: boolean;
}

/** What the extension keeps per editor. */
export interface CollaborationStorage {
  /** The binding to the shared document, made with the editor. */
  binding: ChunkedYBinding | null;
  /** Undo of this writer's own changes only. */
  undoManager: Y.UndoManager | null;
}

declare module '@tiptap/core' {
  interface Storage {
    inkwellCollaboration: CollaborationStorage;
  }
  // The same commands as the editor's own undo, which is off under collaboration.
  interface Commands<ReturnType> {
    inkwellCollaboration: {
      /** Undoes this writer's last change, never someone else's. */
      undo: () => ReturnType;
      /** Redoes what this writer undid. */
      redo: () => ReturnType;
    };
  }
}

/** The binding's plugin. */
export const collaborationKey = new PluginKey('inkwellCollaboration');

/**
 * The editor on a shared Y.Doc (see ChunkedYBinding), with undo per writer: Y.UndoManager
 * tracks only this binding's changes, so undo never takes back what someone else typed. The
 * editor must run without its own undo (`editorExtensions({ undoRedo: false })`), whose steps
 * would undo remote changes too.
 */
export const Collaboration = Extension.create<CollaborationOptions, CollaborationStorage>({
  name: 'inkwellCollaboration',
  // Before other extensions' keymaps, so that Mod-Z is this undo.
  priority: 1000,

  addOptions() {
    return { fragment: null, onRepair: undefined, openWhenMounted: false };
  },

  addStorage() {
    return { binding: null, undoManager: null };
  },

  onBeforeCreate() {
    const binding = bindingOf(this.storage, this.options);
    // A document made in this tab whose fragment is not built yet: drawn from the codec's
    // content, and the fragment built from what the editor shows once the page is quiet.
    const made = unbuiltContent(binding.fragment);
    if (made) {
      buildWith(
        binding.fragment,
        () => binding.buildFragment(),
        () => binding.buildInSlices(),
      );
    }
    const doc = made
      ? binding.startUnbuilt(made, this.editor.schema)
      : binding.initialDoc(this.editor.schema);
    // The first document is the shared one, read before the view exists: no transaction, and
    // nothing for undo or for the binding to write (Tiptap takes a ProseMirror node as content as it is); or
    // opened once the view is mounted.
    if (this.options.openWhenMounted) binding.openLater(doc);
    else this.editor.options.content = doc as unknown as Content;
  },

  onDestroy() {
    this.storage.undoManager?.destroy();
  },

  addCommands() {
    return {
      undo:
        () =>
        ({ tr, dispatch }) => {
          const undoManager = this.storage.undoManager;
          if (!undoManager || undoManager.undoStack.length === 0) return false;
          if (!dispatch) return true;
          // The change arrives through the binding as its own transaction; this command's
          // (built on the state before it) must not be dispatched after it.
          tr.setMeta('preventDispatch', true);
          undoManager.undo();
          return true;
        },
      redo:
        () =>
        ({ tr, dispatch }) => {
          const undoManager = this.storage.undoManager;
          if (!undoManager || undoManager.redoStack.length === 0) return false;
          if (!dispatch) return true;
          // The change arrives through the binding as its own transaction; this command's
          // (built on the state before it) must not be dispatched after it.
          tr.setMeta('preventDispatch', true);
          undoManager.redo();
          return true;
        },
    };
  },

  addKeyboardShortcuts() {
    // Handled even with nothing to undo: the browser's own undo would edit the page behind
    // ProseMirror's back.
    const undo = () => {
      this.editor.commands.undo();
      return true;
    };
    const redo = () => {
      this.editor.commands.redo();
      return true;
    };
    return { 'Mod-z': undo, 'Shift-Mod-z': redo, 'Mod-y': redo };
  },

  addProseMirrorPlugins() {
    const binding = bindingOf(this.storage, this.options);
    return [
      new Plugin({
        key: collaborationKey,
        // Notes whether the next write is an edit for undo, or a change kept out of history
        // (opening, the chunks' own upkeep after a remote change); and where this writer put the
        // caret, so that a split at it goes after what others typed there (arrivedText.ts).
        appendTransaction: (transactions, oldState, newState) => {
          if (
            transactions.some(
              (tr) => tr.docChanged && !isRemoteChange(tr) && tr.getMeta('addToHistory') !== false,
            )
          ) {
            binding.historyPending = true;
          }
          // By moving it, by undo, or by editing at it.
          if (transactions.some((tr) => tr.getMeta(UNDO_CHANGE))) binding.caretNote = 'placed';
          for (const tr of transactions) {
            if (isRemoteChange(tr)) continue;
            if (tr.docChanged) binding.caretNote ??= 'edited';
            else if (tr.selectionSet) binding.caretNote = 'placed';
          }
          if (transactions.some(isRemoteChange)) return null;
          return binding.splitAfterArrived(oldState, transactions, newState);
        },
        view: (view) => {
          binding.attach(view);
          return {
            update: (updated, previous) => {
              binding.syncLocal(updated, previous);
              binding.noteCaret(updated.state);
            },
            destroy: () => binding.detach(),
          };
        },
      }),
    ];
  },
});

function bindingOf(storage: CollaborationStorage, options: CollaborationOptions): ChunkedYBinding {
  if (storage.binding) return storage.binding;
  if (!options.fragment) throw new RangeError('Collaboration needs a Y.XmlFragment.');
  const binding = new ChunkedYBinding(options.fragment, options.onRepair);
  storage.binding = binding;
  storage.undoManager = new Y.UndoManager(options.fragment, {
    trackedOrigins: new Set([binding]),
    deleteFilter: keepOthersWork(binding.doc),
  });
  return binding;
}
