import type { Editor } from '@tiptap/core';
import { useLayoutEffect, useState } from 'react';
import { formatShortcut } from '../../lib/platform.ts';

/** Props of {@link EmptyDocumentHint}. */
export interface EmptyDocumentHintProps {
  /** The editor whose emptiness decides whether the hint shows. */
  editor: Editor;
  /** Opens the Markdown file picker. */
  onImport: () => void;
  /** Opens the shortcut sheet. */
  onShortcuts: () => void;
}

/**
 * What a new writer can do with an empty document besides typing: bring a Markdown file in, or
 * learn the shortcuts. It re-renders only when the document turns empty or not.
 */
export function EmptyDocumentHint({ editor, onImport, onShortcuts }: EmptyDocumentHintProps) {
  const [empty, setEmpty] = useState(() => editor.isEmpty);
  // Listening from a layout effect: the page opens its document in a layout effect of its own,
  // and the hint must be gone before that first paint, not a frame later.
  useLayoutEffect(() => {
    const check = () => setEmpty(editor.isEmpty);
    check();
    editor.on('transaction', check);
    return () => {
      editor.off('transaction', check);
    };
  }, [editor]);
  if (!empty) return null;
  return (
    <p className="ink-empty-hint">
      Start writing, or{' '}
      <button type="button" className="ink-link-button" onClick={onImport}>
        import a Markdown file
      </button>{' '}
      (you can also drop one here). Press{' '}
      <button type="button" className="ink-link-button" onClick={onShortcuts}>
        {formatShortcut('Mod-/')}
      </button>{' '}
      for keyboard shortcuts.
    </p>
  );
}
