// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { afterAll, describe, expect, it } from 'vitest';
import { editorExtensions } from './editorExtensions.ts';
import { loadHtmlSanitizer } from './nodeViews/htmlSanitizer.ts';
import { documentStats } from './documentStats.ts';
import { CHUNK_SIZE, isChunk } from './chunks/chunks.ts';
import { openIn } from './openIn.ts';

function editorWith(content: string): Editor {
  const noop = () => undefined;
  return new Editor({
    element: document.createElement('div'),
    extensions: editorExtensions({
      markdown: { onMarkdownText: noop, onMarkdownFile: noop, onPasteHint: noop },
    }),
    content,
  });
}

// The editor preloads the HTML sanitiser when idle; let that import finish while the file's
// environment is still up, or it lands after teardown and fails the run.
afterAll(() => loadHtmlSanitizer());
describe('documentStats', () => {
  it('matches CharacterCount on the whole document', () => {
    const editor = editorWith(
      '<h1>Title here</h1><p>One  two\tthree</p><ul><li><p>four</p></li><li><p>five six</p></li></ul><hr><p>seven<br>eight</p>',
    );
    const counter = editor.storage.characterCount;
    expect(documentStats(editor.state.doc, counter)).toEqual({
      words: counter.words(),
      characters: counter.characters(),
    });
    expect(counter.words()).toBe(10);
    editor.destroy();
  });

  it('recounts only what changed and stays exact after an edit', () => {
    const editor = editorWith('<p>alpha beta</p><p>gamma</p>');
    const counter = editor.storage.characterCount;
    documentStats(editor.state.doc, counter);
    editor.commands.insertContentAt(editor.state.doc.content.size - 1, ' delta');
    expect(documentStats(editor.state.doc, counter)).toEqual({
      words: counter.words(),
      characters: counter.characters(),
    });
    editor.destroy();
  });

  it('stays exact in a document held in chunks, after an edit in one of them', () => {
    const editor = editorWith('<p>start</p>');
    const html = Array.from({ length: CHUNK_SIZE * 3 }, (_, i) => `<p>word${i} and more</p>`);
    const parsed = editorWith(html.join(''));
    openIn(editor, parsed.state.doc);
    parsed.destroy();
    expect(isChunk(editor.state.doc.child(1))).toBe(true);
    const counter = editor.storage.characterCount;
    const exact = () => ({ words: counter.words(), characters: counter.characters() });
    expect(documentStats(editor.state.doc, counter)).toEqual(exact());
    const second = editor.state.doc.child(0).nodeSize + 3;
    editor.commands.insertContentAt(second, 'new words here ');
    expect(documentStats(editor.state.doc, counter)).toEqual(exact());
    expect(documentStats(editor.state.doc, counter).words).toBe(CHUNK_SIZE * 9 + 3);
    editor.destroy();
  });
});
