import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { Markdown } from 'tiptap-markdown';
import type { BareBench } from './api.ts';
import { afterPaint } from './afterPaint.ts';

// The baseline: what a Tiptap editor with Markdown support does out of the box, with Tiptap's
// default styles and nothing to speed up large documents.
const editor = new Editor({
  element: document.querySelector('#editor'),
  extensions: [
    StarterKit,
    Markdown.configure({ html: true, tightLists: true, linkify: false, breaks: false }),
  ],
});

const bench: BareBench = {
  async load(markdown) {
    const start = performance.now();
    editor.commands.setContent(markdown);
    return (await afterPaint()) - start;
  },
};

window.bareBench = bench;
