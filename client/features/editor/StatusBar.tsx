import type { Editor } from '@tiptap/core';
import { useEffect, useRef, type ReactNode } from 'react';
import type { Observable } from '../../lib/observable.ts';
import { whenIdle } from '../../lib/schedule.ts';
import { documentStats } from './documentStats.ts';
import { isSaveProblem, saveStatusLabel, type SaveStatus } from '../live/persistence/saveStatus.ts';

const numberFormat = new Intl.NumberFormat();

const countLabel = (count: number, one: string, many: string) =>
  `${numberFormat.format(count)} ${count === 1 ? one : many}`;

const saveClass = (status: SaveStatus) =>
  `ink-status__save ink-status__save--${isSaveProblem(status) ? 'error' : status.kind}`;

/** Props of {@link StatusBar}. */
export interface StatusBarProps {
  /** The editor whose document is counted. */
  editor: Editor;
  /** Where the document stands with respect to the server. */
  saveState: Observable<SaveStatus>;
  /** Shown between the counts and the save state (who else is here: PresenceStrip). */
  children?: ReactNode;
  /** The reader may only read: said beside the save state. */
  viewOnly?: boolean;
}

/**
 * Word and character count and save state below the document. Counting waits for an idle
 * moment after edits, so it never runs inside a keystroke; both are written straight to the DOM,
 * because a React commit while the editor has focus walks the whole document (see observable.ts).
 */
export function StatusBar({ editor, saveState, viewOnly = false, children }: StatusBarProps) {
  const words = useRef<HTMLSpanElement>(null);
  const characters = useRef<HTMLSpanElement>(null);
  const save = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    let cancel: (() => void) | undefined;
    const count = () => {
      cancel = undefined;
      const stats = documentStats(editor.state.doc, editor.storage.characterCount);
      const wordText = countLabel(stats.words, 'word', 'words');
      const characterText = countLabel(stats.characters, 'character', 'characters');
      if (words.current && words.current.textContent !== wordText) {
        words.current.textContent = wordText;
      }
      if (characters.current && characters.current.textContent !== characterText) {
        characters.current.textContent = characterText;
      }
    };
    const schedule = () => {
      cancel ??= whenIdle(count, 1000);
    };
    schedule();
    editor.on('update', schedule);
    return () => {
      editor.off('update', schedule);
      cancel?.();
    };
  }, [editor]);

  useEffect(() => {
    // Told of every edit (each one the server has not acknowledged yet): the text is written
    // only when it changes, so that a keystroke does not replace the status's text node, and
    // with it lay out the bar again, to say "Saving…" once more.
    const show = (status: SaveStatus) => {
      const element = save.current;
      if (!element) return;
      const label = saveStatusLabel(status);
      if (element.textContent !== label) element.textContent = label;
      const className = saveClass(status);
      if (element.className !== className) element.className = className;
    };
    show(saveState.get());
    return saveState.subscribe(show);
  }, [saveState]);

  const initial = saveState.get();
  return (
    <footer className="ink-status" aria-label="Document status">
      <span className="ink-status__counts">
        <span data-testid="word-count" ref={words}>
          – words
        </span>
        <span aria-hidden="true"> · </span>
        <span data-testid="character-count" ref={characters}>
          – characters
        </span>
      </span>
      {children}
      <span className="ink-status__end">
        {viewOnly ? <span className="ink-status__view-only">View only</span> : null}
        <span className={saveClass(initial)} role="status" aria-live="polite" ref={save}>
          {saveStatusLabel(initial)}
        </span>
      </span>
    </footer>
  );
}
