// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { contentExtensions } from '../../extensions.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

function links(): unknown[] {
  const found: unknown[] = [];
  editor!.state.doc.descendants((node) => {
    if (node.type.name === 'wikilink') found.push({ ...node.attrs });
  });
  return found;
}

describe('the wikilink node in an editor', () => {
  it('reads its own HTML back, and a forged span as text', () => {
    editor = new Editor({
      extensions: contentExtensions(),
      content:
        '<p><span data-wikilink="Plans" data-fragment="#Q3" data-alias="the plan">the plan</span> ' +
        '<span data-wikilink="javascript:alert(1)">bad</span> ' +
        '<span data-wikilink="a]]b">odd</span></p>',
    });
    expect(links()).toEqual([
      { target: 'Plans', fragment: '#Q3', alias: 'the plan', embed: false, src: null },
    ]);
    expect(editor.state.doc.textContent).toBe('[[Plans#Q3|the plan]] bad odd');
    const html = editor.getHTML();
    editor.commands.setContent(html);
    expect(links()).toHaveLength(1);
  });

  it('copies an embed with the uploaded file it shows, and refuses any other address', () => {
    const src = '/files/0b0e8f0e-52f4-4f2a-9d35-6a3f4c1b2d3e';
    editor = new Editor({
      extensions: contentExtensions(),
      content:
        `<p><span data-wikilink="a.png" data-embed="" data-src="${src}">a.png</span>` +
        '<span data-wikilink="b.png" data-embed="" data-src="https://example.com/b.png">b</span></p>',
    });
    expect(links().map((attrs) => (attrs as { src: unknown }).src)).toEqual([src, null]);
    editor.commands.setContent(editor.getHTML());
    expect(links().map((attrs) => (attrs as { src: unknown }).src)).toEqual([src, null]);
  });

  it('makes a link of [[Title]] typed in full, but not of a refused target', () => {
    editor = new Editor({ extensions: contentExtensions() });
    const type = (text: string) => {
      for (const char of text) {
        const { from, to } = editor!.state.selection;
        const handled = editor!.view.someProp('handleTextInput', (handle) =>
          handle(editor!.view, from, to, char, () => editor!.state.tr.insertText(char, from, to)),
        );
        if (!handled) editor!.view.dispatch(editor!.state.tr.insertText(char, from, to));
      }
    };
    type('See [[Plans#Q3|the plan]] and [[javascript:x]]');
    expect(links()).toEqual([
      { target: 'Plans', fragment: '#Q3', alias: 'the plan', embed: false, src: null },
    ]);
    expect(editor.state.doc.textContent).toBe('See [[Plans#Q3|the plan]] and [[javascript:x]]');
  });
});
