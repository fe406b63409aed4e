// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { DOMParser } from '@tiptap/pm/model';
import { afterEach, describe, expect, it } from 'vitest';
import { contentExtensions } from '../../../common/editor/extensions.ts';
import { ClobberSafePaste, clipboardParser } from './ClobberSafePaste.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

/**
 * Pasted HTML as ProseMirror reads it (inside a <div>): a paragraph, a form holding a control
 * named `name` and a paragraph, and a closing paragraph. Browsers make the control the form's
 * property of that name; jsdom does not, so the test does it.
 */
function pastedForm(name: string): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = `<p>Before</p><form><input name="${name}"><p>Inside the form</p></form><p>After</p>`;
  const form = div.querySelector('form');
  Object.defineProperty(form, name, { value: div.querySelector('input') });
  return div;
}

const CLOBBERED = ['nodeName', 'childNodes', 'replaceWith', 'attributes', 'parentNode'];

describe('clipboardParser', () => {
  it('keeps the text of a form whose controls shadow its DOM properties', () => {
    editor = new Editor({ extensions: contentExtensions() });
    const parser = clipboardParser(editor.schema);
    for (const name of CLOBBERED) {
      const texts: string[] = [];
      parser.parseSlice(pastedForm(name)).content.forEach((node) => texts.push(node.textContent));
      expect(texts, name).toEqual(['Before', 'Inside the form', 'After']);
    }
  });

  it("is what the editor reads pasted HTML with; the schema's own parser throws on such a form", () => {
    editor = new Editor({ extensions: [...contentExtensions(), ClobberSafePaste] });
    expect(() => DOMParser.fromSchema(editor!.schema).parseSlice(pastedForm('nodeName'))).toThrow(
      TypeError,
    );
    const parser = editor.view.someProp('clipboardParser');
    expect(parser?.parseSlice(pastedForm('nodeName')).content.childCount).toBe(3);
  });
});
