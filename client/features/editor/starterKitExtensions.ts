import { Extension } from '@tiptap/core';

/**
 * What StarterKit imports from @tiptap/extensions, in the client build only (vite.config.ts points
 * StarterKit's import here; the server and the unit tests use the package). Inkwell's StarterKit
 * is always configured with `undoRedo: false` and `trailingNode: false`
 * (common/editor/extensions.ts): a shared document's undo is per writer
 * (live/collab/Collaboration.ts). Tiptap's UndoRedo, with prosemirror-history and rope-sequence (3 kB
 * gzip), would be code the editor page waits for and never runs. The cursors come from the
 * package's own entry points: its index holds every extension at once.
 */
export { Dropcursor } from '@tiptap/extensions/drop-cursor';
export { Gapcursor } from '@tiptap/extensions/gap-cursor';

/** Stands in for an extension StarterKit never adds here; fails loudly if it ever does. */
function notInThisBuild(name: string) {
  return Extension.create({
    name,

    onBeforeCreate() {
      throw new Error(
        `StarterKit was given ${name} in the browser build: add it from @tiptap/extensions instead (client/features/editor/starterKitExtensions.ts).`,
      );
    },
  });
}

export const UndoRedo = notInThisBuild('undoRedo');
export const TrailingNode = notInThisBuild('trailingNode');
