// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { contentExtensions } from '../../../../../common/editor/extensions.ts';
import { serializeMarkdown } from '../../../../../common/editor/markdown/serializeMarkdown.ts';
import { SLASH_ITEMS } from '../../slash/slashItems.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

/** Runs the item with `id` as if `/x` had just been typed at the end of the first paragraph. */
function run(id: string, text: string): Editor {
  editor = new Editor({
    extensions: contentExtensions(),
    content: `<p>${text}/x</p><p>After.</p>`,
  });
  const to = editor.state.doc.firstChild!.nodeSize - 1;
  const item = SLASH_ITEMS.find((entry) => entry.id === id);
  if (!item) throw new Error(`no slash item ${id}`);
  item.run({ editor, range: { from: to - 2, to } });
  return editor;
}

describe('callout and properties slash items', () => {
  it('wraps the line in a note callout', () => {
    const doc = run('callout', 'Remember this').state.doc;
    expect(doc.firstChild?.type.name).toBe('callout');
    expect(serializeMarkdown(doc)).toBe('> [!note]\n> Remember this\n\nAfter.\n');
  });

  it('adds empty front matter at the top, once', () => {
    run('properties', 'Text');
    expect(serializeMarkdown(editor!.state.doc)).toBe('---\n---\n\nText\n\nAfter.\n');
  });
});
