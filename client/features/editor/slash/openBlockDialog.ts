import type { Editor } from '@tiptap/core';
import { ReactRenderer } from '@tiptap/react';
import type { BlockDialogProps, BlockDialogSpec } from './BlockDialog.tsx';
import { caretRect, floatNextTo } from './floating.ts';

/**
 * Opens a {@link BlockDialog} at the cursor. Its code is fetched on first use, so the slash
 * menu costs the editor route nothing for dialogs it never opens.
 */
export async function openBlockDialog(editor: Editor, spec: BlockDialogSpec): Promise<void> {
  const { BlockDialog } = await import('./BlockDialog.tsx');
  if (editor.isDestroyed) return;
  const pos = editor.state.selection.from;
  let renderer: ReactRenderer<unknown, BlockDialogProps> | null = null;
  let stop: (() => void) | null = null;
  const onClose = (refocus: boolean) => {
    stop?.();
    renderer?.destroy();
    stop = null;
    renderer = null;
    if (refocus && !editor.isDestroyed) editor.view.focus();
  };
  renderer = new ReactRenderer<unknown, BlockDialogProps>(BlockDialog, {
    editor,
    props: { ...spec, onClose },
    className: 'ink-block-dialog-layer',
  });
  document.body.appendChild(renderer.element);
  stop = floatNextTo(renderer.element, () => caretRect(editor.view, pos), editor.view.dom);
}
