/** One line of the shortcut sheet. */
export interface ShortcutEntry {
  /** What the shortcut does. */
  label: string;
  /** ProseMirror key names (`Mod-Shift-7`); several mean alternatives. */
  keys: string[];
}

/** A titled group of shortcuts. */
export interface ShortcutGroup {
  /** The group's heading. */
  title: string;
  /** Its shortcuts. */
  entries: ShortcutEntry[];
}

/** Every keyboard shortcut of the editor, as the sheet shows them. */
export const SHORTCUT_GROUPS: readonly ShortcutGroup[] = [
  {
    title: 'Text',
    entries: [
      { label: 'Bold', keys: ['Mod-b'] },
      { label: 'Italic', keys: ['Mod-i'] },
      { label: 'Underline', keys: ['Mod-u'] },
      { label: 'Strikethrough', keys: ['Mod-Shift-s', 'Mod-Shift-x'] },
      { label: 'Inline code', keys: ['Mod-e'] },
      { label: 'Highlight', keys: ['Mod-Shift-h'] },
      { label: 'Link', keys: ['Mod-k'] },
    ],
  },
  {
    title: 'Blocks',
    entries: [
      { label: 'Paragraph', keys: ['Mod-Alt-0'] },
      { label: 'Heading 1', keys: ['Mod-Alt-1'] },
      { label: 'Heading 2', keys: ['Mod-Alt-2'] },
      { label: 'Heading 3', keys: ['Mod-Alt-3'] },
      { label: 'Heading 4', keys: ['Mod-Alt-4'] },
      { label: 'Heading 5', keys: ['Mod-Alt-5'] },
      { label: 'Heading 6', keys: ['Mod-Alt-6'] },
      { label: 'Numbered list', keys: ['Mod-Shift-7'] },
      { label: 'Bulleted list', keys: ['Mod-Shift-8'] },
      { label: 'Task list', keys: ['Mod-Shift-9'] },
      { label: 'Quote', keys: ['Mod-Shift-b'] },
      { label: 'Code block', keys: ['Mod-Alt-c'] },
    ],
  },
  {
    title: 'Alignment',
    entries: [
      { label: 'Align left', keys: ['Mod-Shift-l'] },
      { label: 'Align center', keys: ['Mod-Shift-e'] },
      { label: 'Align right', keys: ['Mod-Shift-r'] },
      { label: 'Justify', keys: ['Mod-Shift-j'] },
    ],
  },
  {
    title: 'Editing',
    entries: [
      { label: 'Undo', keys: ['Mod-z'] },
      { label: 'Redo', keys: ['Mod-Shift-z', 'Mod-y'] },
      { label: 'Paste as Markdown', keys: ['Mod-Shift-v'] },
      { label: 'Ask AI', keys: ['Mod-j'] },
      { label: 'Line break', keys: ['Shift-Enter'] },
      { label: 'Indent list item', keys: ['Tab'] },
      { label: 'Outdent list item', keys: ['Shift-Tab'] },
    ],
  },
  {
    title: 'Navigation',
    entries: [
      { label: 'Focus the formatting toolbar', keys: ['Alt-F10'] },
      { label: 'Keyboard shortcuts', keys: ['Mod-/'] },
    ],
  },
];

/** Markdown typed at the start of a line, and what it turns into. */
export const MARKDOWN_SHORTCUTS: readonly { typed: string; result: string }[] = [
  { typed: '# ', result: 'Heading 1 (## for 2, up to ######)' },
  { typed: '- ', result: 'Bulleted list' },
  { typed: '1. ', result: 'Numbered list' },
  { typed: '[ ] ', result: 'Task list' },
  { typed: '> ', result: 'Quote' },
  { typed: '```', result: 'Code block' },
  { typed: '---', result: 'Divider' },
  { typed: '/', result: 'Block menu' },
];
