// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../../common/editor/extensions.ts';
import { blocksOf } from '../editor/chunks/chunks.ts';
import { documentViewExtensions } from '../editor/editorExtensions.ts';
import { drawInSlices } from './drawInSlices.ts';

const schema = inkwellSchema();
const longDoc = (blocks: number) =>
  schema.nodes.doc!.create(
    null,
    Array.from({ length: blocks }, (_, i) =>
      schema.nodes.paragraph!.create(null, schema.text(`Paragraph ${i + 1}`)),
    ),
  );

const editors: Editor[] = [];
afterEach(() => {
  for (const editor of editors.splice(0)) editor.destroy();
});

function viewer() {
  const element = document.createElement('div');
  document.body.append(element);
  const editor = new Editor({
    element,
    content: null,
    editable: false,
    injectCSS: false,
    extensions: documentViewExtensions(),
  });
  editors.push(editor);
  return editor;
}

const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));

describe('drawInSlices', () => {
  it('draws the first chunks at once and the rest in short tasks after, then says so', async () => {
    const editor = viewer();
    let drawn = false;
    drawInSlices(editor, longDoc(1000), () => (drawn = true));
    const first = blocksOf(editor.state.doc).length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(1000);
    expect(drawn).toBe(false);
    for (let i = 0; i < 200 && !drawn; i++) await frame();
    expect(drawn).toBe(true);
    const blocks = blocksOf(editor.state.doc);
    expect(blocks.map((block) => block.textContent)).toEqual(
      Array.from({ length: 1000 }, (_, i) => `Paragraph ${i + 1}`),
    );
    expect(editor.view.dom.textContent).toContain('Paragraph 1000');
  });

  it('draws the rest at once when asked, and nothing more once cancelled', async () => {
    const editor = viewer();
    let drawn = 0;
    const drawing = drawInSlices(editor, longDoc(1000), () => (drawn += 1));
    drawing.finish();
    expect(blocksOf(editor.state.doc)).toHaveLength(1000);
    expect(drawn).toBe(1);
    drawing.finish();
    expect(drawn).toBe(1);

    const other = viewer();
    const stopped = drawInSlices(other, longDoc(1000), () => (drawn += 1));
    const before = blocksOf(other.state.doc).length;
    stopped.cancel();
    for (let i = 0; i < 5; i++) await frame();
    expect(blocksOf(other.state.doc)).toHaveLength(before);
    expect(drawn).toBe(1);
  });

  it('says a short document is drawn at once', async () => {
    const editor = viewer();
    let drawn = false;
    drawInSlices(editor, longDoc(3), () => (drawn = true));
    expect(blocksOf(editor.state.doc)).toHaveLength(3);
    await Promise.resolve();
    expect(drawn).toBe(true);
  });

  it('shows another document in place, redrawing only the chunks whose blocks changed', async () => {
    const editor = viewer();
    const before = longDoc(1000);
    let drawn = 0;
    const drawing = drawInSlices(editor, before, () => (drawn += 1));
    drawing.finish();
    const element = (text: string) =>
      [...editor.view.dom.querySelectorAll('p')].find((p) => p.textContent === text);
    const near = element('Paragraph 10');
    const far = element('Paragraph 900');
    // Paragraph 11 rewritten and one added after it: what a comparison of two versions draws.
    const blocks = blocksOf(before);
    const rewritten = schema.nodes.paragraph!.create(null, schema.text('Paragraph eleven'));
    const added = schema.nodes.paragraph!.create(null, schema.text('A new one'));
    const after = schema.nodes.doc!.create(null, [
      ...blocks.slice(0, 10),
      rewritten,
      added,
      ...blocks.slice(11),
    ]);
    let marked = false;
    drawing.show(
      after,
      () => (drawn += 1),
      (tr) => void (marked = tr.docChanged),
    );
    expect(marked).toBe(true);
    expect(blocksOf(editor.state.doc).map((block) => block.textContent)).toEqual(
      blocksOf(after).map((block) => block.textContent),
    );
    await Promise.resolve();
    expect(drawn).toBe(2);
    // The chunk far from the change is the DOM drawn before; the one holding it, drawn anew.
    expect(element('Paragraph 900')).toBe(far);
    expect(element('Paragraph eleven')).toBeTruthy();
    expect(near?.isConnected).toBe(true);

    // And back: the first document again, in place.
    drawing.show(before, () => (drawn += 1));
    expect(editor.view.dom.textContent).not.toContain('A new one');
    expect(element('Paragraph 900')).toBe(far);
    expect(blocksOf(editor.state.doc)).toHaveLength(1000);
  });

  it('draws another document anew when the one before is still being drawn', async () => {
    const editor = viewer();
    let drawn = '';
    const drawing = drawInSlices(editor, longDoc(1000), () => (drawn = 'first'));
    drawing.show(longDoc(500), () => (drawn = 'second'));
    for (let i = 0; i < 200 && !drawn; i++) await frame();
    expect(drawn).toBe('second');
    expect(blocksOf(editor.state.doc)).toHaveLength(500);
  });
});
