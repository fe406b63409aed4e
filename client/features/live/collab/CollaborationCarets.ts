import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import type { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import type { CaretUser } from '../../../../common/editor/collab/caretUser.ts';
import type { ChunkedYBinding } from './ChunkedYBinding.ts';
import { absolutePosition, relativePosition } from './positions.ts';
import './carets.css';

export type { CaretUser };

/** Options of {@link CollaborationCarets}. */
export interface CollaborationCaretsOptions {
  /** The provider's awareness: where carets are published and read. */
  awareness: Awareness | null;
  /**
   * This writer, as the others see them: declared so that the caret reads right at once; the
   * server replaces it with the account's own in what it passes on (common/editor/collab/caretUser.ts).
   */
  user: CaretUser;
}

/** The awareness fields, as y-tiptap's and Tiptap's caret plugins name them. */
interface CaretState {
  user?: Partial<CaretUser>;
  cursor?: { anchor: unknown; head: unknown } | null;
}

const caretsKey = new PluginKey<DecorationSet>('inkwellCollaborationCarets');
/**
 * How long this writer's caret may wait before the others are told where it went: the awareness
 * message (encoded and written to the socket, ~0.7 ms) is sent after the keystroke's frame, once
 * for the keys typed meanwhile, not inside each keystroke.
 */
const PUBLISH_AFTER_MS = 60;
const COLOR = /^#[0-9a-fA-F]{6}$/;
const FALLBACK_COLOR = '#6b7280';

function caretElement(user: CaretUser): HTMLElement {
  const caret = document.createElement('span');
  caret.className = 'collaboration-carets__caret';
  caret.style.borderColor = user.color;
  const label = document.createElement('div');
  label.className = 'collaboration-carets__label';
  label.style.backgroundColor = user.color;
  // A text node: a name is never read as HTML.
  label.append(document.createTextNode(user.name));
  caret.append(label);
  return caret;
}

function toPosition(binding: ChunkedYBinding, state: EditorState, json: unknown): number | null {
  try {
    return absolutePosition(binding, state.doc, Y.createRelativePositionFromJSON(json));
  } catch {
    // Someone else's awareness is not to be trusted to be well formed.
    return null;
  }
}

function decorationsFor(
  awareness: Awareness,
  binding: ChunkedYBinding,
  state: EditorState,
): DecorationSet {
  const decorations: Decoration[] = [];
  const max = Math.max(0, state.doc.content.size - 1);
  awareness.getStates().forEach((raw, clientId) => {
    if (clientId === awareness.clientID) return;
    const { user, cursor } = raw as CaretState;
    if (!cursor) return;
    const anchor = toPosition(binding, state, cursor.anchor);
    const head = toPosition(binding, state, cursor.head);
    if (anchor === null || head === null) return;
    const shown: CaretUser = {
      name: typeof user?.name === 'string' ? user.name : `Writer ${clientId}`,
      color:
        typeof user?.color === 'string' && COLOR.test(user.color) ? user.color : FALLBACK_COLOR,
    };
    const at = Math.min(head, max);
    // Side -1: what this writer types at the other's caret goes after it, as it does in the
    // shared document (their position keeps the letter before it), until their next move.
    decorations.push(
      Decoration.widget(at, () => caretElement(shown), { key: `caret-${clientId}`, side: -1 }),
    );
    const from = Math.min(anchor, head, max);
    const to = Math.min(Math.max(anchor, head), max);
    if (from < to) {
      decorations.push(
        Decoration.inline(
          from,
          to,
          { style: `background-color: ${shown.color}40`, class: 'collaboration-carets__selection' },
          { inclusiveEnd: true, inclusiveStart: false },
        ),
      );
    }
  });
  return DecorationSet.create(state.doc, decorations);
}

/**
 * Carets and selections of the other connections on the shared document (from Yjs awareness),
 * named and coloured, as decorations; and this writer's own caret published for them while the
 * editor has focus. Positions go through the chunk-aware helpers of positions.ts.
 */
export const CollaborationCarets = Extension.create<CollaborationCaretsOptions>({
  name: 'inkwellCollaborationCarets',

  addOptions() {
    return { awareness: null, user: { name: 'Anonymous', color: FALLBACK_COLOR } };
  },

  addProseMirrorPlugins() {
    const { awareness, user } = this.options;
    const editor = this.editor;
    if (!awareness) return [];
    const bindingOf = (): ChunkedYBinding | null =>
      editor.storage.inkwellCollaboration.binding ?? null;
    awareness.setLocalStateField('user', user);

    const publish = (view: EditorView) => {
      const binding = bindingOf();
      if (!binding) return;
      if (!view.hasFocus() || !view.editable) {
        if ((awareness.getLocalState() as CaretState | null)?.cursor) {
          awareness.setLocalStateField('cursor', null);
        }
        return;
      }
      const { anchor, head } = view.state.selection;
      awareness.setLocalStateField('cursor', {
        anchor: Y.relativePositionToJSON(relativePosition(binding, view.state.doc, anchor)),
        head: Y.relativePositionToJSON(relativePosition(binding, view.state.doc, head)),
      });
    };

    return [
      new Plugin<DecorationSet>({
        key: caretsKey,
        state: {
          init: () => DecorationSet.empty,
          apply(tr, set, _old, state) {
            const binding = bindingOf();
            if (tr.getMeta(caretsKey) && binding) return decorationsFor(awareness, binding, state);
            return set.map(tr.mapping, tr.doc);
          },
        },
        props: {
          decorations: (state) => caretsKey.getState(state),
        },
        view: (view) => {
          const onChange = ({
            added,
            updated,
            removed,
          }: {
            added: number[];
            updated: number[];
            removed: number[];
          }) => {
            const others = [...added, ...updated, ...removed].some(
              (id) => id !== awareness.clientID,
            );
            if (others && !view.isDestroyed) view.dispatch(view.state.tr.setMeta(caretsKey, true));
          };
          awareness.on('change', onChange);
          let timer: ReturnType<typeof setTimeout> | undefined;
          const publishSoon = () => {
            timer ??= setTimeout(() => {
              timer = undefined;
              if (!view.isDestroyed) publish(view);
            }, PUBLISH_AFTER_MS);
          };
          return {
            update: (updated, previous) => {
              const focusChanged =
                updated.hasFocus() !== !!(awareness.getLocalState() as CaretState | null)?.cursor;
              if (focusChanged) {
                // Arriving or leaving is told at once: a caret left behind would mislead.
                clearTimeout(timer);
                timer = undefined;
                publish(updated);
              } else if (
                !updated.state.selection.eq(previous.selection) ||
                updated.state.doc !== previous.doc
              ) {
                publishSoon();
              }
            },
            destroy: () => {
              clearTimeout(timer);
              awareness.off('change', onChange);
              awareness.setLocalStateField('cursor', null);
            },
          };
        },
      }),
    ];
  },
});
