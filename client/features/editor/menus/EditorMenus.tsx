import type { Editor } from '@tiptap/core';
import { MediaBubbleMenu } from './MediaBubbleMenu.tsx';
import { TextBubbleMenu } from './TextBubbleMenu.tsx';
import './menus.css';

/**
 * The editor's floating menus: the formatting bubble of a text selection (with its link
 * popover and palettes) and the menu of a selected image or video. Mount once per editor.
 */
export function EditorMenus({ editor }: { editor: Editor }) {
  return (
    <>
      <TextBubbleMenu editor={editor} />
      <MediaBubbleMenu editor={editor} />
    </>
  );
}
