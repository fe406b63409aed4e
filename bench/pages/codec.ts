import { Editor } from '@tiptap/core';
import { contentExtensions } from '../../common/editor/extensions.ts';
import { parseMarkdown, serializeMarkdown } from '../../common/editor/markdown/index.ts';
import type { CodecBench, ExportTimings } from './api.ts';
import { denseMarks } from './denseMarks.ts';

let editor: Editor | null = null;

const bench: CodecBench = {
  load(markdown, dense) {
    editor?.destroy();
    const doc = parseMarkdown(markdown);
    const json = (dense ? denseMarks(doc) : doc).toJSON();
    // Headless (no element): export works on the document alone, as in Inkwell's export.
    editor = new Editor({ extensions: contentExtensions(), content: json });
  },
  time(runs, warmup): ExportTimings {
    if (!editor) throw new Error('load() first');
    const timings: ExportTimings = { serialize: [], getHTML: [], markdownLength: 0, htmlLength: 0 };
    for (let run = 0; run < warmup + runs; run++) {
      let start = performance.now();
      const markdown = serializeMarkdown(editor.state.doc);
      const serializeMs = performance.now() - start;
      start = performance.now();
      const html = editor.getHTML();
      const htmlMs = performance.now() - start;
      timings.markdownLength = markdown.length;
      timings.htmlLength = html.length;
      if (run < warmup) continue;
      timings.serialize.push(serializeMs);
      timings.getHTML.push(htmlMs);
    }
    return timings;
  },
};

window.codecBench = bench;
