// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { DOMParser, type Fragment } from '@tiptap/pm/model';
import { afterEach, describe, expect, it } from 'vitest';
import { attributeTypeProblem } from '../../../common/editor/attributeTypes.ts';
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

  it('reads attributes that look like numbers as the text they are, as the server takes them', () => {
    editor = new Editor({ extensions: contentExtensions() });
    const div = document.createElement('div');
    div.innerHTML =
      '<p><a href="/x" title="2024" class="7">year</a> <img src="/a.png" alt="100" title="true"></p>' +
      '<table><tr><td colspan="two"><p>cell</p></td></tr></table>';
    // Tiptap reads such attributes as numbers and booleans by itself.
    const plain = DOMParser.fromSchema(editor.schema).parseSlice(div.cloneNode(true));
    expect(problems(plain.content)).not.toEqual([]);
    const slice = clipboardParser(editor.schema).parseSlice(div);
    expect(problems(slice.content)).toEqual([]);
    const line = slice.content.firstChild!;
    expect(line.firstChild!.marks[0]!.attrs).toMatchObject({
      href: '/x',
      title: '2024',
      class: '7',
    });
    expect(line.lastChild!.attrs).toMatchObject({ src: '/a.png', alt: '100', title: 'true' });
    expect(slice.content.lastChild!.firstChild!.firstChild!.attrs.colspan).toBe(1);
  });
});

/** The attribute type problems (attributeTypes.ts) of every node and mark in `fragment`. */
function problems(fragment: Fragment): string[] {
  const found: string[] = [];
  fragment.descendants((node) => {
    for (const item of [node, ...node.marks]) {
      const problem = attributeTypeProblem(item.type.name, item.attrs);
      if (problem) found.push(problem);
    }
  });
  return found;
}
