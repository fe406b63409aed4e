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
});
