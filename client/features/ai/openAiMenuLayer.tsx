import { posToDOMRect, type Editor } from '@tiptap/core';
import { createRoot } from 'react-dom/client';
import { floatNextTo } from '../editor/slash/floating.ts';
import { loadServerConfig } from './aiConfig.ts';
import { AiMenu } from './AiMenu.tsx';
import type { AiMenuFocus } from './aiTrigger.ts';
import { runAiCommand } from './runAiCommand.ts';
import './ai.css';

let closeOpenMenu: ((refocus: boolean) => void) | null = null;

/** Shows the AI menu next to the selection until a command is picked, Escape or a click away. */
export function openAiMenuLayer(editor: Editor, focus: AiMenuFocus): void {
  closeOpenMenu?.(false);
  if (editor.isDestroyed) return;
  const { from, to } = editor.state.selection;
  const element = document.createElement('div');
  element.className = 'ink-ai-layer';
  document.body.append(element);
  const root = createRoot(element);
  const stopFloating = floatNextTo(
    element,
    () => (editor.isDestroyed ? null : posToDOMRect(editor.view, from, to)),
    editor.view.dom,
  );

  const onPointerDown = (event: PointerEvent) => {
    if (event.target instanceof Node && element.contains(event.target)) return;
    close(false);
  };

  function close(refocus: boolean) {
    if (closeOpenMenu !== close) return;
    closeOpenMenu = null;
    document.removeEventListener('pointerdown', onPointerDown, true);
    stopFloating();
    root.unmount();
    element.remove();
    if (refocus && !editor.isDestroyed) editor.view.focus();
  }

  closeOpenMenu = close;
  document.addEventListener('pointerdown', onPointerDown, true);
  root.render(
    <AiMenu
      config={loadServerConfig()}
      focus={focus}
      onClose={() => close(true)}
      onPick={(command) => {
        close(true);
        void runAiCommand(editor, command);
      }}
    />,
  );
}
