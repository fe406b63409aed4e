// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it } from 'vitest';
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import type * as Y from 'yjs';
import { CHUNK_SIZE, forEachBlock } from '../../editor/chunks/chunks.ts';
import { editorExtensions } from '../../editor/editorExtensions.ts';
import { Collaboration } from './Collaboration.ts';
import { CollaborationCarets, type CaretUser } from './CollaborationCarets.ts';
import { FRAGMENT, network, paragraphsJson, replicas } from './test/testEditors.ts';

const opened: Editor[] = [];
afterEach(() => {
  for (const editor of opened.splice(0)) editor.destroy();
  document.body.replaceChildren();
});

function open(doc: Y.Doc, awareness: Awareness, user: CaretUser): Editor {
  const noop = () => undefined;
  const element = document.createElement('div');
  document.body.append(element);
  const editor = new Editor({
    element,
    extensions: [
      ...editorExtensions({
        markdown: { onMarkdownText: noop, onMarkdownFile: noop, onPasteHint: noop },
        undoRedo: false,
      }),
      Collaboration.configure({ fragment: doc.getXmlFragment(FRAGMENT) }),
      CollaborationCarets.configure({ awareness, user }),
    ],
  });
  opened.push(editor);
  return editor;
}

/** Passes awareness changes between the two, as the provider does. */
function linkAwareness(a: Awareness, b: Awareness): void {
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    from.on(
      'update',
      (
        { added, updated, removed }: { added: number[]; updated: number[]; removed: number[] },
        origin: unknown,
      ) => {
        if (origin === 'remote') return;
        const changed = [...added, ...updated, ...removed];
        applyAwarenessUpdate(to, encodeAwarenessUpdate(from, changed), 'remote');
      },
    );
  }
}

/** Waits until a caret that moved has been told to the others (PUBLISH_AFTER_MS). */
const told = () => new Promise((resolve) => setTimeout(resolve, 100));

function textStart(editor: Editor, index: number): number {
  let found = -1;
  forEachBlock(editor.state.doc, (_block, pos, i) => {
    if (i === index) found = pos + 1;
  });
  return found;
}

describe('carets of other writers', () => {
  it("shows the other writer's named, coloured caret where they are, across chunks", async () => {
    const docs = replicas(paragraphsJson(CHUNK_SIZE * 3), 2);
    const awareness = docs.map((doc) => new Awareness(doc));
    linkAwareness(awareness[0]!, awareness[1]!);
    network(docs);
    const a = open(docs[0]!, awareness[0]!, { name: 'Ada', color: '#aa3366' });
    const b = open(docs[1]!, awareness[1]!, { name: 'Bo <b>', color: 'red; x' });
    const index = CHUNK_SIZE * 2 + 5;
    a.view.focus();
    a.view.dispatch(
      a.state.tr.setSelection(TextSelection.create(a.state.doc, textStart(a, index) + 3)),
    );
    await told();
    const label = b.view.dom.querySelector('.collaboration-carets__label');
    expect(label?.textContent).toBe('Ada');
    expect((label as HTMLElement | null)?.style.backgroundColor).toBe('rgb(170, 51, 102)');
    // The caret (with its label) sits after the same three letters on the other side.
    const caret = b.view.dom.querySelector('.collaboration-carets__caret');
    expect(caret?.closest('p')?.textContent).toBe(`ParAdaagraph ${index}`);
    expect(b.view.dom.querySelectorAll('.collaboration-carets__caret')).toHaveLength(1);
    // A's own caret is not drawn for A; B (not focused) publishes none.
    expect(a.view.dom.querySelector('.collaboration-carets__caret')).toBeNull();
    awareness.forEach((aw) => aw.destroy());
  });

  it("keeps the other writer's caret before what is typed at it: it stays with their text", async () => {
    const docs = replicas(paragraphsJson(3), 2);
    const awareness = docs.map((doc) => new Awareness(doc));
    linkAwareness(awareness[0]!, awareness[1]!);
    network(docs);
    const a = open(docs[0]!, awareness[0]!, { name: 'Ada', color: '#aa3366' });
    const b = open(docs[1]!, awareness[1]!, { name: 'Bo', color: '#3366aa' });
    a.view.focus();
    const at = textStart(a, 1) + 3;
    a.view.dispatch(a.state.tr.setSelection(TextSelection.create(a.state.doc, at)));
    await told();
    b.view.dispatch(b.state.tr.setSelection(TextSelection.create(b.state.doc, at)));
    b.view.dispatch(b.state.tr.insertText('XY'));
    const caret = b.view.dom.querySelector('.collaboration-carets__caret');
    expect(caret?.closest('p')?.textContent).toBe('ParAdaXYagraph 1');
    // A's caret itself: what B typed at it went after it.
    expect(a.state.selection.from).toBe(at);
    awareness.forEach((aw) => aw.destroy());
  });

  it('tells the others where the caret went after the keystroke, once for keys typed together', async () => {
    const docs = replicas(paragraphsJson(3), 2);
    const awareness = docs.map((doc) => new Awareness(doc));
    linkAwareness(awareness[0]!, awareness[1]!);
    network(docs);
    const a = open(docs[0]!, awareness[0]!, { name: 'Ada', color: '#aa3366' });
    open(docs[1]!, awareness[1]!, { name: 'Bo', color: '#3366aa' });
    a.view.focus();
    a.view.dispatch(a.state.tr.setSelection(TextSelection.create(a.state.doc, textStart(a, 1))));
    await told();
    let sent = 0;
    awareness[0]!.on('update', () => sent++);
    for (const key of 'abc') a.view.dispatch(a.state.tr.insertText(key));
    // Not inside the keystrokes: the awareness message waits for them to be done.
    expect(sent).toBe(0);
    await told();
    expect(sent).toBe(1);
    const cursor = (awareness[1]!.getStates().get(awareness[0]!.clientID) as { cursor?: unknown })
      .cursor;
    expect(cursor).toBeTruthy();
    awareness.forEach((aw) => aw.destroy());
  });
});
