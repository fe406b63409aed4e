import '../../client/styles/index.css';
import { Editor } from '@tiptap/core';
import { prosemirrorToYXmlFragment } from '@tiptap/y-tiptap';
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { parseMarkdown } from '../../common/editor/markdown/index.ts';
import { Collaboration } from '../../client/features/live/collab/Collaboration.ts';
import { CollaborationCarets } from '../../client/features/live/collab/CollaborationCarets.ts';
import { relativePosition } from '../../client/features/live/collab/positions.ts';
import { editorExtensions } from '../../client/features/editor/editorExtensions.ts';
import { openIn } from '../../client/features/editor/openIn.ts';
import { afterPaint } from './afterPaint.ts';
import type { CollabBench } from './api.ts';

// Inkwell's editor with the app's styles and extensions, outside the app: on a Y.Doc through the
// collaboration binding (no provider, no network), or, for comparison in the same page, without.
const noop = () => undefined;
let editor: Editor | null = null;

const bench: CollabBench = {
  async load(markdown, collaboration) {
    editor?.destroy();
    const start = performance.now();
    const doc = parseMarkdown(markdown);
    const ydoc = new Y.Doc();
    const awareness = new Awareness(ydoc);
    if (collaboration) prosemirrorToYXmlFragment(doc, ydoc.getXmlFragment('default'));
    const element = document.querySelector('#editor');
    if (!element) throw new Error('no #editor');
    element.replaceChildren();
    editor = new Editor({
      element,
      injectCSS: false,
      enablePasteRules: false,
      extensions: [
        ...editorExtensions({
          markdown: { onMarkdownText: noop, onMarkdownFile: noop, onPasteHint: noop },
          ...(collaboration ? { undoRedo: false as const } : {}),
        }),
        ...(collaboration
          ? [
              Collaboration.configure({ fragment: ydoc.getXmlFragment('default') }),
              CollaborationCarets.configure({
                awareness,
                user: { name: 'Bench', color: '#336699' },
              }),
            ]
          : []),
      ],
      editorProps: { attributes: { class: 'ink-prose' } },
    });
    if (!collaboration) openIn(editor, doc);
    else showAnotherWriter(editor, awareness);
    return (await afterPaint()) - start;
  },
};

/** Another writer's caret a third of the way down, as a shared document would show. */
function showAnotherWriter(shown: Editor, awareness: Awareness): void {
  const binding = shown.storage.inkwellCollaboration.binding;
  if (!binding) return;
  const other = new Awareness(new Y.Doc());
  const at = Y.relativePositionToJSON(
    relativePosition(binding, shown.state.doc, Math.floor(shown.state.doc.content.size / 3)),
  );
  other.setLocalState({
    user: { name: 'Other', color: '#aa3366' },
    cursor: { anchor: at, head: at },
  });
  applyAwarenessUpdate(awareness, encodeAwarenessUpdate(other, [other.clientID]), 'bench');
}

window.collabBench = bench;
