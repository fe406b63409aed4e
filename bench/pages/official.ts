import { Editor } from '@tiptap/core';
import { Markdown } from '@tiptap/markdown';
import StarterKit from '@tiptap/starter-kit';
import type { BareBench } from './api.ts';
import { afterPaint } from './afterPaint.ts';

// The second baseline of issue 25: Tiptap's own Markdown extension, with Tiptap's default styles
// and nothing to speed up large documents, loaded as its documentation shows.
const editor = new Editor({
  element: document.querySelector('#editor'),
  extensions: [StarterKit, Markdown],
});

const bench: BareBench = {
  async load(markdown) {
    const start = performance.now();
    editor.commands.setContent(markdown, { contentType: 'markdown' });
    return (await afterPaint()) - start;
  },
};

window.bareBench = bench;
