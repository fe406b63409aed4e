import { isMacOS } from '@tiptap/core';

const MAC_SYMBOLS: Record<string, string> = { Mod: '⌘', Shift: '⇧', Alt: '⌥', Ctrl: '⌃' };

/** A Tiptap key name such as `Mod-Shift-s` as people read it: `⌘⇧S` on a Mac, `Ctrl+Shift+S` elsewhere. */
export function formatShortcut(keys: string, mac: boolean = isMacOS()): string {
  const parts = keys.split('-').map((part) => (part.length === 1 ? part.toUpperCase() : part));
  if (mac) return parts.map((part) => MAC_SYMBOLS[part] ?? part).join('');
  return parts.map((part) => (part === 'Mod' ? 'Ctrl' : part)).join('+');
}

/** The tooltip of a control: its name, then its shortcut in parentheses when it has one. */
export function withShortcut(name: string, keys: string | undefined, mac?: boolean): string {
  return keys ? `${name} (${formatShortcut(keys, mac)})` : name;
}
