import { describe, expect, it } from 'vitest';
import type { Node as PMNode } from '@tiptap/pm/model';
import { parseMarkdown } from '../../markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../markdown/serializeMarkdown.ts';
import { roundtrip } from '../../markdown/test/fidelity.ts';

function names(doc: PMNode): string[] {
  const out: string[] = [];
  doc.forEach((node) => out.push(node.type.name));
  return out;
}

describe('footnotes [^id]', () => {
  it('keeps definitions where they were written, not moved to the end', () => {
    const text = 'One[^a].\n\n[^a]: Defined in the middle.\n\nLast paragraph.\n';
    expect(names(parseMarkdown(text))).toEqual(['paragraph', 'footnoteDefinition', 'paragraph']);
    expect(roundtrip(text)).toBe(text);
  });

  it('reads references as atoms with their label', () => {
    const doc = parseMarkdown('See[^long-note] and[^1].\n');
    const labels: unknown[] = [];
    doc.descendants((n) => {
      if (n.type.name === 'footnoteRef') labels.push(n.attrs.label);
    });
    expect(labels).toEqual(['long-note', '1']);
  });

  it('writes definitions one per line or apart, as they were', () => {
    for (const text of [
      'A[^1] B[^2]\n\n[^1]: First.\n[^2]: Second.\n',
      'A[^1] B[^2]\n\n[^1]: First.\n\n[^2]: Second.\n',
      'A[^1]\n\n[^1]: First paragraph\n    goes on.\n\n    Second paragraph.\n',
      'A[^1]\n\n[^1]:\n',
    ]) {
      expect(roundtrip(text)).toBe(text);
    }
  });

  it('keeps a footnote in a quote and in a table cell', () => {
    for (const text of [
      '> Quoted claim[^q].\n>\n> [^q]: Its source.\n',
      '| a | b |\n| --- | --- |\n| cell[^c] | x |\n\n[^c]: From a cell.\n',
    ]) {
      expect(roundtrip(text)).toBe(text);
    }
  });

  it('does not take a link whose text starts with ^ for a footnote', () => {
    const doc = parseMarkdown('[^up](https://example.com)\n');
    expect(doc.firstChild!.firstChild!.marks[0]?.type.name).toBe('link');
  });

  it('keeps [^ in text as text', () => {
    const schema = parseMarkdown('').type.schema;
    const doc = schema.node('doc', null, [
      schema.node('paragraph', null, [schema.text('not [^a] note')]),
    ]);
    const out = serializeMarkdown(doc);
    expect(parseMarkdown(out).textContent).toBe('not [^a] note');
  });
});

describe('inline footnotes ^[text]', () => {
  it('keeps the text as written, brackets and marks and all', () => {
    for (const text of [
      'Told twice.^[The one about the lighthouse keepers.]\n',
      'Nested^[see [this](https://example.com) and *that*] here.\n',
      'Wrapped^[over\ntwo lines] ok.\n',
    ]) {
      expect(roundtrip(text)).toBe(text);
    }
    let found = 0;
    parseMarkdown('A^[b]\n').descendants((n) => {
      if (n.type.name === 'inlineFootnote') found++;
    });
    expect(found).toBe(1);
  });

  it('leaves ^[ in text, an empty ^[] and an unclosed one as text', () => {
    for (const text of ['x^[]', 'x^[open']) {
      expect(parseMarkdown(roundtrip(text)).textContent).toBe(text);
    }
    const schema = parseMarkdown('').type.schema;
    const doc = schema.node('doc', null, [
      schema.node('paragraph', null, [schema.text('2^[n] grows')]),
    ]);
    expect(parseMarkdown(serializeMarkdown(doc)).textContent).toBe('2^[n] grows');
  });
});
