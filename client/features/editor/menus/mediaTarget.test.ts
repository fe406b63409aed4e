// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { NodeSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it } from 'vitest';
import { contentExtensions } from '../../../../common/editor/extensions.ts';
import { deleteMedia, readMediaTarget, updateMediaAttributes } from './mediaTarget.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

function editorWith(content: object[]): Editor {
  editor = new Editor({ extensions: contentExtensions(), content: { type: 'doc', content } });
  return editor;
}

const image = {
  type: 'image',
  attrs: { src: 'https://a.b/c.png', alt: 'A cat', width: 400, height: 300 },
};
const video = {
  type: 'youtube',
  attrs: { src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', start: 90 },
};

describe('readMediaTarget', () => {
  it('reads a selected image and nothing for a text selection', () => {
    const e = editorWith([{ type: 'paragraph', content: [{ type: 'text', text: 'x' }] }, image]);
    e.commands.setTextSelection(1);
    expect(readMediaTarget(e.state)).toBeNull();
    e.commands.setNodeSelection(3);
    expect(readMediaTarget(e.state)).toEqual({
      pos: 3,
      type: 'image',
      alt: 'A cat',
      title: '',
      width: 400,
      height: 300,
      start: 0,
    });
  });

  it('reads sizes stored as strings by pasted HTML', () => {
    const e = editorWith([{ ...image, attrs: { ...image.attrs, width: '640', height: 'auto' } }]);
    e.commands.setNodeSelection(0);
    expect(readMediaTarget(e.state)).toMatchObject({ width: 640, height: null });
  });
});

describe('updateMediaAttributes', () => {
  it('changes the node and keeps it selected, so the menu stays open', () => {
    const e = editorWith([video]);
    e.commands.setNodeSelection(0);
    expect(updateMediaAttributes(e, { pos: 0, type: 'youtube' }, { start: 30, width: 800 })).toBe(
      true,
    );
    expect(e.state.selection).toBeInstanceOf(NodeSelection);
    expect(readMediaTarget(e.state)).toMatchObject({ type: 'youtube', start: 30, width: 800 });
  });

  it('refuses when the node at the position is no longer of the type', () => {
    const e = editorWith([{ type: 'paragraph' }]);
    expect(updateMediaAttributes(e, { pos: 0, type: 'image' }, { alt: 'x' })).toBe(false);
  });
});

describe('deleteMedia', () => {
  it('removes the node', () => {
    const e = editorWith([{ type: 'paragraph', content: [{ type: 'text', text: 'x' }] }, image]);
    expect(deleteMedia(e, { pos: 3, type: 'image' })).toBe(true);
    expect(JSON.stringify(e.getJSON())).not.toContain('image');
  });
});
