import { ReactRenderer } from '@tiptap/react';
import type { SuggestionOptions, SuggestionProps } from '@tiptap/suggestion';
import { floatNextTo } from './floating.ts';
import { SlashMenu, type SlashMenuHandle, type SlashMenuProps } from './SlashMenu.tsx';
import type { SlashItem } from './slashItems.ts';
import './slash.css';

// Loaded by SlashCommand.ts the first time `/` opens the menu: the menu, its items and
// floating-ui stay out of the editor's first download.

export type Render = NonNullable<SuggestionOptions<SlashItem, SlashItem>['render']>;

/** Mounts the menu next to the cursor on `/`, follows the query and tears down on exit. */
export const renderSlashMenu: Render = () => {
  let renderer: ReactRenderer<SlashMenuHandle, SlashMenuProps> | null = null;
  let stop: (() => void) | null = null;
  let clientRect: SuggestionProps['clientRect'] = null;
  const menuProps = (props: SuggestionProps<SlashItem, SlashItem>) => ({
    editor: props.editor,
    query: props.query,
    command: props.command,
  });

  return {
    onStart: (props) => {
      clientRect = props.clientRect;
      renderer = new ReactRenderer<SlashMenuHandle, SlashMenuProps>(SlashMenu, {
        editor: props.editor,
        props: menuProps(props),
        className: 'ink-slash-layer',
      });
      document.body.appendChild(renderer.element);
      stop = floatNextTo(renderer.element, () => clientRect?.() ?? null, props.editor.view.dom);
    },
    onUpdate: (props) => {
      clientRect = props.clientRect;
      renderer?.updateProps(menuProps(props));
    },
    onKeyDown: ({ event }) => renderer?.ref?.onKeyDown(event) ?? false,
    onExit: () => {
      stop?.();
      renderer?.destroy();
      stop = null;
      renderer = null;
    },
  };
};
