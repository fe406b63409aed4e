import type { Editor } from '@tiptap/core';
import { useEffect, useRef, type ReactNode } from 'react';
import type { Observable } from '../../lib/observable.ts';
import { whenIdle } from '../../lib/schedule.ts';
import { documentStats } from './documentStats.ts';
import { isSaveProblem, saveStatusLabel, type SaveStatus } from '../live/persistence/saveStatus.ts';

const numberFormat = new Intl.NumberFormat();

/** The counts wait for the writer to pause this long after an edit… */
const COUNT_AFTER_PAUSE_MS = 500;
/** …or, while the writer keeps typing, at most this long after the first edit not counted. */
const COUNT_AT_LEAST_MS = 2000;
/** How long "Saved" has to hold after "Saving…" before the bar says it. */
export const SAVED_SETTLES_MS = 600;

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
 * Word and character count and save state below the document. Counting waits for a pause in
 * the writing and an idle moment, so it never runs inside a keystroke nor draws a frame between
 * two; "Saved" shows once the saves have caught up with the writer. Both are written straight
 * to the DOM, because a React commit while the editor has focus walks the whole document (see
 * observable.ts).
 */
export function StatusBar({ editor, saveState, viewOnly = false, children }: StatusBarProps) {
  const words = useRef<HTMLSpanElement>(null);
  const characters = useRef<HTMLSpanElement>(null);
  const save = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    let cancel: (() => void) | undefined;
    let pause: number | undefined;
    let firstEdit: number | null = null;
    const count = () => {
      cancel = undefined;
      firstEdit = null;
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
    const countWhenIdle = () => {
      pause = undefined;
      cancel ??= whenIdle(count, 1000);
    };
    // Counted once the writer pauses, or every COUNT_AT_LEAST_MS of steady typing: a count
    // written after each key made the page draw a frame of its own for it between keys.
    const schedule = () => {
      const now = performance.now();
      firstEdit ??= now;
      window.clearTimeout(pause);
      const wait = Math.min(COUNT_AFTER_PAUSE_MS, firstEdit + COUNT_AT_LEAST_MS - now);
      pause = window.setTimeout(countWhenIdle, Math.max(0, wait));
    };
    countWhenIdle();
    editor.on('update', schedule);
    return () => {
      editor.off('update', schedule);
      window.clearTimeout(pause);
      cancel?.();
    };
  }, [editor]);

  useEffect(() => {
    // Told of every edit (each one the server has not acknowledged yet): the text is written
    // only when it changes, so that a keystroke does not replace the status's text node, and
    // with it lay out the bar again, to say "Saving…" once more.
    // What the bar says now (set by write, first just below).
    let shown: SaveStatus['kind'] | null = null;
    const write = (status: SaveStatus) => {
      shown = status.kind;
      const element = save.current;
      if (!element) return;
      const label = saveStatusLabel(status);
      if (element.textContent !== label) element.textContent = label;
      const className = saveClass(status);
      if (element.className !== className) element.className = className;
    };
    // "Saved" after "Saving…" waits until it has held for SAVED_SETTLES_MS: while the writer
    // types, each key is acknowledged before the next, and the bar said "Saving…", "Saved"
    // for every key (a frame drawn for each, and a live region announcing both). Any other
    // status shows at once.
    let settling: number | undefined;
    const show = (status: SaveStatus) => {
      window.clearTimeout(settling);
      if (status.kind === 'saved' && shown === 'saving') {
        settling = window.setTimeout(() => write(status), SAVED_SETTLES_MS);
      } else {
        write(status);
      }
    };
    write(saveState.get());
    const unsubscribe = saveState.subscribe(show);
    return () => {
      unsubscribe();
      window.clearTimeout(settling);
    };
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
