// @vitest-environment jsdom
import type { Editor } from '@tiptap/core';
import { Selection, TextSelection } from '@tiptap/pm/state';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import { afterEach, describe, expect, it } from 'vitest';
import type * as Y from 'yjs';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { seededRandom } from '../../../../common/test/seededRandom.ts';
import { unchunked } from '../../editor/chunks/chunks.ts';
import { FRAGMENT, collabEditor, network, paragraphsJson, replicas } from './test/testEditors.ts';

const schema = inkwellSchema();
const opened: Editor[] = [];
afterEach(() => {
  for (const editor of opened.splice(0)) editor.destroy();
});

function shared(doc: Y.Doc): unknown {
  return schema.nodeFromJSON(yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(FRAGMENT))).toJSON();
}

/** A text position near `fraction` of the document. */
function textPos(editor: Editor, fraction: number): number {
  const { doc } = editor.state;
  const $pos = doc.resolve(Math.floor(fraction * doc.content.size));
  return Selection.near($pos).from;
}

/** One random edit of the kinds writers make: typing, Enter, Backspace, deleting a range, bold, a list, undo. */
function randomEdit(editor: Editor, random: () => number): void {
  const at = textPos(editor, random());
  const kind = Math.floor(random() * 8);
  const chain = editor.chain().setTextSelection(at);
  switch (kind) {
    case 0:
    case 1:
      chain.insertContent('xy z').run();
      break;
    case 2:
      chain.splitBlock().run();
      break;
    case 3:
      chain.joinBackward().run();
      break;
    case 4: {
      const to = Math.min(textPos(editor, random()), at + 400);
      if (to > at) {
        editor.view.dispatch(
          editor.state.tr.setSelection(TextSelection.create(editor.state.doc, at, to)),
        );
        editor.commands.deleteSelection();
      }
      break;
    }
    case 5: {
      const to = textPos(editor, Math.min(1, random() * 0.1 + at / editor.state.doc.content.size));
      if (to > at) editor.chain().setTextSelection({ from: at, to }).toggleBold().run();
      break;
    }
    case 6:
      chain.toggleBulletList().run();
      break;
    default:
      // Undo of this writer's last step, while the others' edits arrive around it.
      editor.storage.inkwellCollaboration.undoManager?.undo();
  }
}

describe('writers editing at random at the same moments', () => {
  it.each([1, 2, 3])('converge to the shared document (seed %i)', (seed) => {
    const random = seededRandom(seed);
    const docs = replicas(paragraphsJson(300), 3);
    const problems: string[] = [];
    const editors = docs.map((doc) => {
      const editor = collabEditor(doc, (problem) => problems.push(problem));
      opened.push(editor);
      return editor;
    });
    const net = network(docs);
    for (let round = 0; round < 12; round++) {
      net.hold();
      for (const editor of editors) {
        for (let edit = 0; edit < 4; edit++) randomEdit(editor, random);
      }
      net.flush();
      const expected = shared(docs[0]!);
      for (const [i, editor] of editors.entries()) {
        expect(shared(docs[i]!), `doc ${i}, round ${round}`).toEqual(expected);
        expect(unchunked(editor.state.doc).toJSON(), `editor ${i}, round ${round}`).toEqual(
          expected,
        );
      }
    }
  });
});
