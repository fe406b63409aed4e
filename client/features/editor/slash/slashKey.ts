import { PluginKey } from '@tiptap/pm/state';

/** The key of the slash menu's suggestion plugin (and of its stand-in until that has loaded). */
export const SlashCommandPluginKey = new PluginKey('slashCommand');
