import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { useCallback, useEffect, useState } from 'react';
import type { DocumentRecord } from '../../../../common/api/documents.ts';
import { DEFAULT_LIMITS } from '../../../../common/api/limits.ts';
import { documentPath, navigate } from '../../../app/router.ts';
import { useToast } from '../../../components/toastContext.ts';
import { useDocumentList } from '../../documents/documentListContext.ts';
import { createDocument, summaryOf } from '../../documents/documentsApi.ts';
import { displayTitle, failureMessage } from '../../documents/useDocumentActions.ts';
import type { Autosave } from '../persistence/Autosave.ts';
import { checkContent } from '../persistence/openDocument.ts';
import { serializeDoc } from '../persistence/serializeDoc.ts';
import { openIn } from '../openIn.ts';

/**
 * Whether the server's `theirs` (shared schema) and the editor's document hold the same content.
 * Compared as JSON text: the two are of different schemas (and the editor's is in chunks), which
 * `Node.eq` tells apart however equal their content.
 */
function sameContent(theirs: ProseMirrorNode, ours: ProseMirrorNode): boolean {
  return serializeDoc(theirs) === serializeDoc(ours);
}

const COPY_SUFFIX = ' (my copy)';

/** The title of the copy that "Keep both" makes of `title`, within the title limit. */
export function copyTitleOf(title: string): string {
  return displayTitle(title).slice(0, DEFAULT_LIMITS.titleChars - COPY_SUFFIX.length) + COPY_SUFFIX;
}

/** What {@link useConflictChoices} works on. */
export interface ConflictTarget {
  editor: Editor;
  /** The running autosave. */
  autosave: () => Autosave<ProseMirrorNode> | null;
  getTitle: () => string;
  /** Shows a title without counting it as an edit. */
  showTitle: (title: string) => void;
  /** The server's copy that the edits met. */
  current: DocumentRecord;
  /** Called once the conflict is settled. */
  onResolved: () => void;
}

/**
 * The writer's choices when edits here met a newer version on the server: keep mine (save it
 * over theirs), take theirs (show the server's copy; mine stays one undo away), or keep both
 * (mine becomes a new document, this one shows theirs). Two copies that are the same need no
 * choice.
 */
export function useConflictChoices(target: ConflictTarget) {
  const { editor, autosave, getTitle, showTitle, current, onResolved } = target;
  const toast = useToast();
  const list = useDocumentList();
  // False while checking whether the two copies differ at all.
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  /** Shows the server's copy in the editor; false when it cannot be opened. */
  const showTheirs = useCallback(
    async (theirs: DocumentRecord) => {
      const checked = await checkContent(theirs.content);
      const save = autosave();
      if (!checked || !save) return false;
      if (!sameContent(checked.doc, editor.state.doc)) openIn(editor, checked.doc);
      showTitle(theirs.title);
      await save.takeTheirs(theirs.version, { title: theirs.title, doc: editor.state.doc });
      return true;
    },
    [autosave, editor, showTitle],
  );

  useEffect(() => {
    let live = true;
    void checkContent(current.content).then(async (checked) => {
      if (!live) return;
      // The same text saved twice (say, from another tab): take it without asking.
      if (checked && sameContent(checked.doc, editor.state.doc) && current.title === getTitle()) {
        if (await showTheirs(current)) {
          onResolved();
          return;
        }
      }
      if (live) setAsking(true);
    });
    return () => {
      live = false;
    };
  }, [current, editor, getTitle, onResolved, showTheirs]);

  const choose = useCallback(
    async (action: (theirs: DocumentRecord) => Promise<boolean>) => {
      setBusy(true);
      try {
        if (await action(current)) onResolved();
      } finally {
        setBusy(false);
      }
    },
    [current, onResolved],
  );

  const keepMine = useCallback(
    () =>
      choose(async (theirs) => {
        void autosave()?.keepMine(theirs.version);
        return true;
      }),
    [autosave, choose],
  );

  const takeTheirs = useCallback(
    () =>
      choose(async (theirs) => {
        if (await showTheirs(theirs)) return true;
        toast.show("The other version couldn't be opened. Keep yours, or keep both.", 'error');
        return false;
      }),
    [choose, showTheirs, toast],
  );

  const keepBoth = useCallback(
    () =>
      choose(async (theirs) => {
        const title = copyTitleOf(getTitle());
        try {
          const copy = await createDocument({ title, content: serializeDoc(editor.state.doc) });
          list.add(summaryOf(copy));
          toast.show(`Your version was saved as “${title}”.`, 'info', {
            label: 'Open',
            run: () => navigate(documentPath(copy.id)),
          });
        } catch (error) {
          const message = failureMessage(error, 'save your copy');
          if (message) toast.show(message, 'error');
          return false;
        }
        if (await showTheirs(theirs)) return true;
        toast.show("Your copy was saved, but the other version couldn't be opened.", 'error');
        return false;
      }),
    [choose, editor, getTitle, list, showTheirs, toast],
  );

  return { asking, busy, keepMine, takeTheirs, keepBoth };
}
