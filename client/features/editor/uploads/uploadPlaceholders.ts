import type { EditorState, Transaction } from '@tiptap/pm/state';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorProps } from '@tiptap/pm/view';

/**
 * Uploads under way, shown where their image will go. A placeholder is a widget decoration, not
 * a node: the document never holds an upload in progress, so nothing saves, exports or undoes a
 * `blob:` address, and the writer's edits around it move it like any decoration.
 */
export const uploadPlaceholderKey = new PluginKey<DecorationSet>('inkwellUploadPlaceholders');

/** What one placeholder shows and does. */
export interface PlaceholderWidget {
  /** The element drawn in the document. */
  readonly dom: HTMLElement;
  /** Moves the progress bar (0 to 1). */
  setProgress(fraction: number): void;
}

type Action = { add: { id: string; pos: number; widget: PlaceholderWidget } } | { remove: string };

/** The transaction's placeholder change, added to `tr`. */
export function addPlaceholder(
  tr: Transaction,
  id: string,
  pos: number,
  widget: PlaceholderWidget,
): Transaction {
  return tr.setMeta(uploadPlaceholderKey, { add: { id, pos, widget } } satisfies Action);
}

export function removePlaceholder(tr: Transaction, id: string): Transaction {
  return tr.setMeta(uploadPlaceholderKey, { remove: id } satisfies Action);
}

/** Where placeholder `id` now is, or null when it is gone (its place was deleted). */
export function placeholderPos(state: EditorState, id: string): number | null {
  const set = uploadPlaceholderKey.getState(state);
  const found = set?.find(undefined, undefined, (spec) => spec.uploadId === id);
  return found?.[0]?.from ?? null;
}

/**
 * Builds the widget of an upload: the local preview, the file's name, a progress bar and a
 * cancel button. Read-only content in the document flow, so it takes the space the image will.
 */
export function placeholderWidget(options: {
  preview: string;
  name: string;
  onCancel: () => void;
}): PlaceholderWidget {
  const dom = document.createElement('figure');
  dom.className = 'ink-upload';
  dom.contentEditable = 'false';
  const image = document.createElement('img');
  image.className = 'ink-upload__preview';
  image.src = options.preview;
  image.alt = '';
  const label = document.createElement('figcaption');
  label.className = 'ink-upload__label';
  label.textContent = `Uploading ${options.name}…`;
  const bar = document.createElement('progress');
  bar.className = 'ink-upload__bar';
  bar.max = 1;
  bar.value = 0;
  bar.setAttribute('aria-label', `Uploading ${options.name}`);
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.className = 'ink-upload__cancel';
  cancel.textContent = 'Cancel';
  cancel.addEventListener('mousedown', (event) => event.preventDefault());
  cancel.addEventListener('click', options.onCancel);
  label.append(bar, cancel);
  dom.append(image, label);
  return {
    dom,
    setProgress: (fraction) => (bar.value = Math.min(1, Math.max(0, fraction))),
  };
}

/**
 * The plugin holding the placeholders, with the paste and drop handlers that start uploads;
 * `onDestroy` runs when the editor goes (to cancel the uploads under way).
 */
export function uploadPlaceholders(
  handlers: Pick<EditorProps, 'handlePaste' | 'handleDrop'>,
  onDestroy: () => void,
): Plugin<DecorationSet> {
  return new Plugin<DecorationSet>({
    key: uploadPlaceholderKey,
    state: {
      init: () => DecorationSet.empty,
      apply(tr, set) {
        let next = set.map(tr.mapping, tr.doc);
        const action = tr.getMeta(uploadPlaceholderKey) as Action | undefined;
        if (action && 'add' in action) {
          const { id, pos, widget } = action.add;
          // side 1: an image inserted at the same place (an earlier file of the same drop) goes
          // before this placeholder, so the files land in the order they were dropped.
          const deco = Decoration.widget(pos, widget.dom, { uploadId: id, key: id, side: 1 });
          next = next.add(tr.doc, [deco]);
        } else if (action && 'remove' in action) {
          const id = action.remove;
          next = next.remove(next.find(undefined, undefined, (spec) => spec.uploadId === id));
        }
        return next;
      },
    },
    props: {
      ...handlers,
      decorations: (state) => uploadPlaceholderKey.getState(state),
    },
    view: () => ({ destroy: onDestroy }),
  });
}
