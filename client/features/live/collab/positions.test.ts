// @vitest-environment jsdom
import type { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { CHUNK_SIZE, forEachBlock } from '../../editor/chunks/chunks.ts';
import type { ChunkedYBinding } from './ChunkedYBinding.ts';
import { absolutePosition, relativePosition } from './positions.ts';
import { FRAGMENT, collabEditor, network, paragraphsJson, replicas } from './test/testEditors.ts';

const opened: Editor[] = [];
afterEach(() => {
  for (const editor of opened.splice(0)) editor.destroy();
});

function bindingOf(editor: Editor): ChunkedYBinding {
  const binding = editor.storage.inkwellCollaboration.binding;
  if (!binding) throw new Error('no binding');
  return binding;
}

function textStart(editor: Editor, index: number): number {
  let found = -1;
  forEachBlock(editor.state.doc, (_block, pos, i) => {
    if (i === index) found = pos + 1;
  });
  return found;
}

describe('positions in the shared document', () => {
  it('round-trips every text position across chunk edges', () => {
    const [doc] = replicas(
      {
        type: 'doc',
        content: [
          ...paragraphsJson(CHUNK_SIZE * 2 + 5).content!,
          {
            type: 'bulletList',
            content: [
              {
                type: 'listItem',
                content: [{ type: 'paragraph', content: [{ type: 'text', text: 'item' }] }],
              },
            ],
          },
          { type: 'paragraph', content: [{ type: 'text', text: 'last' }] },
        ],
      },
      1,
    );
    const editor = collabEditor(doc!);
    opened.push(editor);
    const binding = bindingOf(editor);
    const { doc: pm } = editor.state;
    expect(pm.childCount).toBeGreaterThan(1);
    let checked = 0;
    pm.descendants((node, pos) => {
      if (!node.isText) return;
      for (let p = pos; p <= pos + node.nodeSize; p++) {
        const relative = relativePosition(binding, pm, p);
        expect(
          absolutePosition(
            binding,
            pm,
            Y.decodeRelativePosition(Y.encodeRelativePosition(relative)),
          ),
        ).toBe(p);
        checked++;
      }
    });
    expect(checked).toBeGreaterThan(CHUNK_SIZE * 2 * 10);
  });

  it('follows its text when someone else types before it', () => {
    const docs = replicas(paragraphsJson(CHUNK_SIZE * 3), 2);
    const [a, b] = docs.map((doc) => collabEditor(doc));
    opened.push(a!, b!);
    network(docs);
    const index = CHUNK_SIZE * 2 + 3;
    const at = textStart(a!, index) + 4;
    const relative = relativePosition(bindingOf(a!), a!.state.doc, at);
    b!.commands.insertContentAt(textStart(b!, index), 'abc');
    b!.commands.insertContentAt(textStart(b!, 1), [{ type: 'paragraph' }, { type: 'paragraph' }]);
    expect(docs[0]!.getXmlFragment(FRAGMENT).length).toBe(CHUNK_SIZE * 3 + 2);
    expect(absolutePosition(bindingOf(a!), a!.state.doc, relative)).toBe(
      textStart(a!, index + 2) + 7,
    );
  });
});
