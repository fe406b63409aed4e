import type { Editor } from '@tiptap/core';
import type { EditorState } from '@tiptap/pm/state';
import { selectedMediaNode } from './bubble.ts';

/** The selected image or video as the media menu shows it. */
export interface MediaTarget {
  /** Position of the node in the document. */
  pos: number;
  /** `image`, `inlineImage` or `youtube`. */
  type: string;
  /** Image alt text. */
  alt: string;
  /** Image title. */
  title: string;
  /** Width in pixels, or null for the natural size. */
  width: number | null;
  /** Height in pixels, or null for the natural size. */
  height: number | null;
  /** Video start time in seconds. */
  start: number;
}

/** Attribute values parsed from HTML arrive as strings: read a size either way. */
const toPixels = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 ? Math.round(n) : null;
};

const toText = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The media node under a NodeSelection, or null when none is selected. */
export function readMediaTarget(state: EditorState): MediaTarget | null {
  const node = selectedMediaNode(state);
  if (!node) return null;
  return {
    pos: state.selection.from,
    type: node.type.name,
    alt: toText(node.attrs.alt),
    title: toText(node.attrs.title),
    width: toPixels(node.attrs.width),
    height: toPixels(node.attrs.height),
    start: toPixels(node.attrs.start) ?? 0,
  };
}

/**
 * Sets attributes of the node at `pos` if it is still of `type`. Attribute steps leave every
 * position in place, so the node stays selected and its menu stays open.
 */
export function updateMediaAttributes(
  editor: Editor,
  target: Pick<MediaTarget, 'pos' | 'type'>,
  attrs: Record<string, unknown>,
): boolean {
  return editor
    .chain()
    .command(({ tr }) => {
      if (tr.doc.nodeAt(target.pos)?.type.name !== target.type) return false;
      for (const [name, value] of Object.entries(attrs))
        tr.setNodeAttribute(target.pos, name, value);
      return true;
    })
    .run();
}

/** Deletes the node at `pos` if it is still of `type`, and puts the cursor where it was. */
export function deleteMedia(editor: Editor, target: Pick<MediaTarget, 'pos' | 'type'>): boolean {
  const node = editor.state.doc.nodeAt(target.pos);
  if (node?.type.name !== target.type) return false;
  return editor
    .chain()
    .focus()
    .deleteRange({ from: target.pos, to: target.pos + node.nodeSize })
    .run();
}
