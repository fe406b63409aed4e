// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { DOMParser, DOMSerializer, type Node as PMNode } from '@tiptap/pm/model';
import { afterEach, describe, expect, it } from 'vitest';
import { contentExtensions, inkwellSchema } from '../extensions.ts';

afterEach(() => {
  document.body.replaceChildren();
});

const schema = inkwellSchema();

function parse(html: string): PMNode {
  const element = document.createElement('div');
  element.innerHTML = html;
  return DOMParser.fromSchema(schema).parse(element);
}

function render(node: PMNode): HTMLElement {
  const element = document.createElement('div');
  element.append(DOMSerializer.fromSchema(schema).serializeFragment(node.content));
  return element;
}

/** An editor holding one empty paragraph, the caret in it. */
function emptyEditor(): Editor {
  return new Editor({
    element: document.body.appendChild(document.createElement('div')),
    extensions: contentExtensions(),
    content: { type: 'doc', content: [{ type: 'paragraph' }] },
  });
}

/** Types `text` one character at a time as the keyboard would, input rules included. */
function type(editor: Editor, text: string): void {
  for (const character of text) {
    const { from, to } = editor.state.selection;
    const view = editor.view;
    const handled = view.someProp('handleTextInput', (handle) =>
      handle(view, from, to, character, () => view.state.tr.insertText(character, from, to)),
    );
    if (!handled) view.dispatch(view.state.tr.insertText(character, from, to));
  }
}

describe('the YouTube node', () => {
  it('reads an embed pasted from YouTube, keeping its start apart, and plays from it', () => {
    const doc = parse(
      '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ?start=42" width="560" height="315"></iframe>',
    );
    const video = doc.firstChild;
    expect(video?.type.name).toBe('youtube');
    expect(video?.attrs).toMatchObject({
      src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
      start: 42,
      width: 560,
      height: 315,
    });
    const frame = render(doc).querySelector('div[data-youtube-video] > iframe');
    expect(frame?.getAttribute('src')).toBe(
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=42',
    );
    expect(frame?.getAttribute('width')).toBe('560');
    expect(frame?.hasAttribute('allowfullscreen')).toBe(true);
  });

  it('takes a frame of another site for nothing', () => {
    const doc = parse('<iframe src="https://player.vimeo.com/video/1234567"></iframe>');
    const types: string[] = [];
    doc.descendants((node) => void types.push(node.type.name));
    expect(types).not.toContain('youtube');
  });

  it('draws a stored address it cannot read as a frame with no source', () => {
    const node = schema.nodes.youtube!.create({ src: 'https://example.com/video' });
    const frame = render(schema.nodes.doc!.create(null, node)).querySelector('iframe');
    expect(frame?.hasAttribute('src')).toBe(false);
    expect(frame?.getAttribute('width')).toBe('640');
  });
});

describe('the image nodes', () => {
  it('read an <img> as a block image, or inline within a line, with plain pixel sizes', () => {
    const block = parse('<img src="https://example.com/a.png" alt="A" width="300" height="x">');
    expect(block.firstChild?.type.name).toBe('image');
    expect(block.firstChild?.attrs).toMatchObject({ src: 'https://example.com/a.png', alt: 'A' });
    expect(block.firstChild?.attrs.width).toBe('300');
    expect(block.firstChild?.attrs.height).toBeNull();
    const inline = parse('<p>A badge <img src="https://example.com/b.svg" alt="B"> here</p>');
    expect(inline.firstChild?.child(1).type.name).toBe('inlineImage');
    const img = render(inline).querySelector('img');
    expect(img?.getAttribute('loading')).toBe('lazy');
    expect(img?.getAttribute('decoding')).toBe('async');
  });

  it('drop an <img> whose source breaks the link rule', () => {
    const doc = parse('<p>x<img src="javascript:alert(1)"></p><img src="vbscript:x">');
    const types: string[] = [];
    doc.descendants((node) => void types.push(node.type.name));
    expect(types.filter((name) => name.endsWith('mage'))).toEqual([]);
  });

  it('turn ![alt](src) typed in a line into an image', () => {
    const editor = emptyEditor();
    type(editor, '![A cat](https://example.com/cat.png)');
    const images: PMNode[] = [];
    editor.state.doc.descendants(
      (node) => void (node.type.name.endsWith('mage') && images.push(node)),
    );
    expect(images.map((node) => node.attrs.src)).toEqual(['https://example.com/cat.png']);
    expect(images[0]?.attrs.alt).toBe('A cat');
    editor.destroy();
  });

  it('leave ![alt](src) typed with a script address as the text typed', () => {
    const editor = emptyEditor();
    type(editor, '![x](javascript:alert(1))');
    expect(editor.state.doc.textContent).toBe('![x](javascript:alert(1))');
    const types: string[] = [];
    editor.state.doc.descendants((node) => void types.push(node.type.name));
    expect(types.filter((name) => name.endsWith('mage'))).toEqual([]);
    editor.destroy();
  });
});
