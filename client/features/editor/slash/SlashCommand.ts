import { Extension } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import { ReactRenderer } from '@tiptap/react';
import Suggestion, { type SuggestionOptions, type SuggestionProps } from '@tiptap/suggestion';
import { floatNextTo } from './floating.ts';
import { SlashMenu, type SlashMenuHandle, type SlashMenuProps } from './SlashMenu.tsx';
import type { SlashItem } from './slashItems.ts';
import './slash.css';

/** The key of the slash menu's suggestion plugin. */
export const SlashCommandPluginKey = new PluginKey('slashCommand');

type Render = NonNullable<SuggestionOptions<SlashItem, SlashItem>['render']>;

/** Mounts the menu next to the cursor on `/`, follows the query and tears down on exit. */
const renderSlashMenu: Render = () => {
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

/**
 * Typing `/` at the start of a line or after a space opens a filterable menu of every block:
 * text, headings, lists, quote, code (with a language), table, divider, image and YouTube video.
 */
export const SlashCommand = Extension.create({
  name: 'slashCommand',

  addProseMirrorPlugins() {
    return [
      Suggestion<SlashItem, SlashItem>({
        editor: this.editor,
        pluginKey: SlashCommandPluginKey,
        char: '/',
        allow: ({ editor, state, range }) =>
          editor.isEditable && !state.doc.resolve(range.from).parent.type.spec.code,
        command: ({ editor, range, props }) => props.run({ editor, range }),
        render: renderSlashMenu,
      }),
    ];
  },
});
