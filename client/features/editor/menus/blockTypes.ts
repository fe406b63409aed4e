import type { ChainedCommands } from '@tiptap/core';
import type { Selection } from '@tiptap/pm/state';

/** Every kind of block a text block can be turned into. */
export type BlockTypeId =
  | 'paragraph'
  | `heading${HeadingLevel}`
  | 'blockquote'
  | 'bulletList'
  | 'orderedList'
  | 'taskList'
  | 'codeBlock';

type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/** One entry of the "Turn into" menu. */
export interface BlockType {
  /** Stable id, also used by the slash menu. */
  id: BlockTypeId;
  /** What the menu shows. */
  label: string;
  /** The Tiptap key name of its shortcut. */
  shortcut: string;
}

const HEADING_LEVELS: readonly HeadingLevel[] = [1, 2, 3, 4, 5, 6];

/** The block kinds in menu order, with the shortcuts Tiptap binds for them. */
export const BLOCK_TYPES: readonly BlockType[] = [
  { id: 'paragraph', label: 'Paragraph', shortcut: 'Mod-Alt-0' },
  ...HEADING_LEVELS.map((level): BlockType => ({
    id: `heading${level}`,
    label: `Heading ${level}`,
    shortcut: `Mod-Alt-${level}`,
  })),
  { id: 'blockquote', label: 'Quote', shortcut: 'Mod-Shift-b' },
  { id: 'bulletList', label: 'Bullet list', shortcut: 'Mod-Shift-8' },
  { id: 'orderedList', label: 'Numbered list', shortcut: 'Mod-Shift-7' },
  { id: 'taskList', label: 'Task list', shortcut: 'Mod-Shift-9' },
  { id: 'codeBlock', label: 'Code block', shortcut: 'Mod-Alt-c' },
];

const WRAPPERS: Readonly<Record<string, BlockTypeId>> = {
  taskList: 'taskList',
  bulletList: 'bulletList',
  orderedList: 'orderedList',
  blockquote: 'blockquote',
};

/**
 * The kind of block the selection starts in; the nearest list or quote around a paragraph wins.
 * Looks only at the selection's ancestors, so its cost does not grow with the document.
 */
export function currentBlockType(selection: Selection): BlockTypeId | null {
  const { $from } = selection;
  const parent = $from.parent;
  if (parent.type.name === 'codeBlock') return 'codeBlock';
  if (parent.type.name === 'heading') {
    const level = HEADING_LEVELS.find((l) => l === parent.attrs.level);
    return level ? `heading${level}` : null;
  }
  if (parent.type.name !== 'paragraph') return null;
  for (let depth = $from.depth - 1; depth > 0; depth -= 1) {
    const wrapper = WRAPPERS[$from.node(depth).type.name];
    if (wrapper) return wrapper;
  }
  return 'paragraph';
}

const isPlainList = (id: BlockTypeId | null) => id === 'bulletList' || id === 'orderedList';

/**
 * Queues on `chain` the commands that turn the selected blocks into `target`. Other wrappers are
 * cleared first, except between bullet and numbered lists, which convert in place and keep nesting.
 */
export function turnInto(
  chain: ChainedCommands,
  target: BlockTypeId,
  current: BlockTypeId | null,
): ChainedCommands {
  if (target === current) return chain;
  if (isPlainList(target) && isPlainList(current)) {
    return target === 'bulletList' ? chain.toggleBulletList() : chain.toggleOrderedList();
  }
  const cleared = chain.clearNodes();
  switch (target) {
    case 'paragraph':
      return cleared;
    case 'blockquote':
      return cleared.setBlockquote();
    case 'bulletList':
      return cleared.toggleBulletList();
    case 'orderedList':
      return cleared.toggleOrderedList();
    case 'taskList':
      return cleared.toggleTaskList();
    case 'codeBlock':
      return cleared.setCodeBlock();
    default: {
      const level = HEADING_LEVELS.find((l) => target === `heading${l}`) ?? 1;
      return cleared.setHeading({ level });
    }
  }
}
