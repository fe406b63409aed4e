// @vitest-environment jsdom
import { DOMParser, DOMSerializer } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../extensions.ts';

/** Reads `html` as pasted HTML is read, and writes the document back as the editor shows it. */
function paste(html: string): { json: unknown; html: string } {
  const schema = inkwellSchema();
  const element = document.createElement('div');
  element.innerHTML = html;
  const doc = DOMParser.fromSchema(schema).parse(element);
  const out = document.createElement('div');
  out.append(DOMSerializer.fromSchema(schema).serializeFragment(doc.content));
  return { json: doc.toJSON(), html: out.innerHTML };
}

describe('pasted HTML styles', () => {
  it('keeps a plain text colour and highlight colour', () => {
    const { json } = paste(
      '<p><span style="color: #d73a49">a</span><mark data-color="#ff0">b</mark></p>',
    );
    expect(JSON.stringify(json)).toContain('{"type":"textStyle","attrs":{"color":"#d73a49"}}');
    expect(JSON.stringify(json)).toContain(
      '{"type":"highlight","attrs":{"color":"#ff0","syntax":null}}',
    );
  });

  it('drops a colour that is not one, such as var() or one that adds declarations', () => {
    const { html } = paste(
      '<p><span style="color: var(--x)">a</span><mark data-color="red; position: fixed; inset: 0">b</mark></p>',
    );
    expect(html).not.toContain('var(');
    expect(html).not.toContain('position');
  });

  it('keeps an alignment only when it is one of the four', () => {
    expect(paste('<p style="text-align: center">a</p>').html).toContain('text-align: center');
    expect(paste('<p style="text-align: -webkit-center">a</p>').html).toBe('<p>a</p>');
  });

  it('keeps an image size only when it is a number of pixels', () => {
    expect(paste('<img src="a.png" width="120" height="90">').html).toContain(
      'width="120" height="90"',
    );
    const { html } = paste('<img src="a.png" width="99999999" height="50%">');
    expect(html).not.toContain('width=');
    expect(html).not.toContain('height=');
  });
});
