import type { Editor } from '@tiptap/core';
import { useEffect, useState } from 'react';
import { whenIdle } from '../../lib/schedule.ts';
import { documentStats, type DocumentStats } from './documentStats.ts';
import type { SaveState } from './persistence/SaveScheduler.ts';

const SAVE_LABELS: Record<SaveState | 'unavailable', string> = {
  saved: 'Saved on this device',
  pending: 'Saving…',
  saving: 'Saving…',
  error: "Couldn't save on this device, retrying",
  unavailable: 'Not saved: storage is unavailable',
};

const numberFormat = new Intl.NumberFormat();

/** Props of {@link StatusBar}. */
export interface StatusBarProps {
  /** The editor whose document is counted. */
  editor: Editor;
  /** Where the document stands with respect to the device copy. */
  saveState: SaveState | 'unavailable';
}

/**
 * Word and character count and save state below the document. Counting waits for an idle
 * moment after edits, so it never runs inside a keystroke.
 */
export function StatusBar({ editor, saveState }: StatusBarProps) {
  const [stats, setStats] = useState<DocumentStats | null>(null);

  useEffect(() => {
    let cancel: (() => void) | undefined;
    const count = () => {
      cancel = undefined;
      const next = documentStats(editor.state.doc, editor.storage.characterCount);
      setStats((prev) =>
        prev && prev.words === next.words && prev.characters === next.characters ? prev : next,
      );
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

  const words = stats ? numberFormat.format(stats.words) : '–';
  const characters = stats ? numberFormat.format(stats.characters) : '–';
  return (
    <footer className="ink-status" aria-label="Document status">
      <span className="ink-status__counts">
        <span data-testid="word-count">
          {words} {stats?.words === 1 ? 'word' : 'words'}
        </span>
        <span aria-hidden="true"> · </span>
        <span data-testid="character-count">
          {characters} {stats?.characters === 1 ? 'character' : 'characters'}
        </span>
      </span>
      <span
        className={`ink-status__save ink-status__save--${saveState === 'unavailable' ? 'error' : saveState}`}
        role="status"
        aria-live="polite"
      >
        {SAVE_LABELS[saveState]}
      </span>
    </footer>
  );
}
