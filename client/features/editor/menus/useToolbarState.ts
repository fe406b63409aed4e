import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import { currentBlockType, type BlockTypeId } from './blockTypes.ts';

/** The four text alignments the schema allows. */
export type Alignment = 'left' | 'center' | 'right' | 'justify';

/** Everything the bubble toolbar displays. */
export interface ToolbarState {
  /** Whether each toggle mark covers the selection. */
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  code: boolean;
  link: boolean;
  /** The text colour at the selection, or null for the default. */
  color: string | null;
  /** The highlight colour at the selection, or null for none. */
  highlight: string | null;
  /** The alignment of the block the selection starts in. */
  align: Alignment;
  /** The kind of block the selection starts in. */
  block: BlockTypeId | null;
}

const IDLE: ToolbarState = {
  bold: false,
  italic: false,
  underline: false,
  strike: false,
  code: false,
  link: false,
  color: null,
  highlight: null,
  align: 'left',
  block: null,
};

const ALIGNMENTS: readonly Alignment[] = ['left', 'center', 'right', 'justify'];

const stringOrNull = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/** Reads the toolbar's state; each check walks the selection only, never the whole document. */
function readToolbarState(editor: Editor): ToolbarState {
  const { selection } = editor.state;
  // A collapsed selection shows no toolbar: skip the mark checks on every keystroke.
  if (selection.empty) return IDLE;
  const align = ALIGNMENTS.find((a) => a === selection.$from.parent.attrs.textAlign) ?? 'left';
  return {
    bold: editor.isActive('bold'),
    italic: editor.isActive('italic'),
    underline: editor.isActive('underline'),
    strike: editor.isActive('strike'),
    code: editor.isActive('code'),
    link: editor.isActive('link'),
    color: stringOrNull(editor.getAttributes('textStyle').color),
    highlight: editor.isActive('highlight')
      ? (stringOrNull(editor.getAttributes('highlight').color) ?? 'default')
      : null,
    align,
    block: currentBlockType(selection),
  };
}

/** The bubble toolbar's state; the component re-renders only when one of its fields changes. */
export function useToolbarState(editor: Editor): ToolbarState {
  return useEditorState({ editor, selector: ({ editor: e }) => readToolbarState(e) });
}
