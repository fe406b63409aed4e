import { describe, expect, it } from 'vitest';
import type { Node as PMNode } from '@tiptap/pm/model';
import { parseMarkdown } from '../../markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../markdown/serializeMarkdown.ts';
import { roundtrip } from '../../markdown/test/fidelity.ts';

function find(doc: PMNode, name: string): PMNode[] {
  const found: PMNode[] = [];
  doc.descendants((node) => {
    if (node.type.name === name) found.push(node);
  });
  return found;
}

describe('math in $…$ and $$…$$', () => {
  it('writes nothing for an empty formula, which would read back as text', () => {
    const schema = parseMarkdown('').type.schema;
    const doc = schema.node('doc', null, [
      schema.node('paragraph', null, [schema.text('a'), schema.node('mathInline', { tex: '' })]),
      schema.node('mathBlock', { tex: '' }),
    ]);
    expect(serializeMarkdown(doc)).toBe('a\n');
  });

  it('keeps the TeX exactly as written, backslashes and all', () => {
    const doc = parseMarkdown('Space $\\,x$ and $\\{a\\_b\\}$.\n');
    expect(find(doc, 'mathInline').map((n) => n.attrs.tex)).toEqual(['\\,x', '\\{a\\_b\\}']);
    expect(roundtrip('Space $\\,x$ and $\\{a\\_b\\}$.\n')).toBe(
      'Space $\\,x$ and $\\{a\\_b\\}$.\n',
    );
  });

  it('reads a $$ block over several lines as display math and writes it back verbatim', () => {
    const text =
      'Before.\n\n$$\n\\begin{aligned}\na &= b \\\\\n  c &= d\n\\end{aligned}\n$$\n\nAfter.\n';
    const doc = parseMarkdown(text);
    expect(find(doc, 'mathBlock').map((n) => n.attrs.tex)).toEqual([
      '\n\\begin{aligned}\na &= b \\\\\n  c &= d\n\\end{aligned}\n',
    ]);
    expect(roundtrip(text)).toBe(text);
  });

  it('keeps $$…$$ written inside a paragraph as display math in the line', () => {
    const text = 'The sum:\n$$\\sum_i x_i$$\nis finite.\n';
    const [math] = find(parseMarkdown(text), 'mathInline');
    expect(math?.attrs).toEqual({ tex: '\\sum_i x_i', display: true });
    expect(roundtrip(text)).toBe(text);
  });

  it('reads $n$th as math but not a $ after a letter or _ (README variables)', () => {
    expect(find(parseMarkdown('the $n$th item\n'), 'mathInline').map((n) => n.attrs.tex)).toEqual([
      'n',
    ]);
    expect(find(parseMarkdown('- _$data_: see [$data](#x)\n'), 'mathInline')).toEqual([]);
  });

  it('escapes enough $ when escaping one lets another pair up', () => {
    const schema = parseMarkdown('').type.schema;
    const text = '$#1$5*#a#1==#1$';
    const doc = schema.node('doc', null, [schema.node('paragraph', null, [schema.text(text)])]);
    expect(parseMarkdown(serializeMarkdown(doc)).textContent).toBe(text);
  });

  it('leaves money and shell variables as text, unescaped', () => {
    for (const text of [
      'It costs $5 and $10.\n',
      'Set $HOME or $PATH.\n',
      'A $ sign $ here.\n',
      'a$b$c\n',
    ]) {
      expect(find(parseMarkdown(text), 'mathInline'), text).toEqual([]);
      expect(roundtrip(text)).toBe(text);
    }
  });

  it('keeps math in a quote (a callout body), a list and a table cell', () => {
    for (const text of [
      '> [!note]\n> The mass $m_0$ and\n>\n> $$\n> E = mc^2\n> $$\n',
      '- item $a^2$\n\n  $$\n  b\n  $$\n',
      '| f | value |\n| --- | --- |\n| $x \\mid y$ | 1 |\n',
      '| f | value |\n| --- | --- |\n| $\\|x\\|$ | %%a\\|b%% |\n',
    ]) {
      const out = roundtrip(text);
      expect(out.replace('\\[!note\\]', '[!note]')).toBe(text);
    }
  });

  it('escapes a $ in text only where it would open math', () => {
    const schema = parseMarkdown('').type.schema;
    const doc = (text: string) =>
      schema.node('doc', null, [schema.node('paragraph', null, [schema.text(text)])]);
    expect(serializeMarkdown(doc('$x$ is text'))).toBe('\\$x$ is text\n');
    expect(serializeMarkdown(doc('$$x$$'))).toBe('\\$\\$x$$\n');
    expect(serializeMarkdown(doc('costs $5'))).toBe('costs $5\n');
    for (const text of ['$x$ is text', '$$x$$', 'a $b$ c $d']) {
      expect(parseMarkdown(serializeMarkdown(doc(text))).textContent).toBe(text);
    }
  });

  it('leaves an unclosed $$ block as text', () => {
    const text = '$$\nnot closed\n';
    expect(find(parseMarkdown(text), 'mathBlock')).toEqual([]);
    expect(parseMarkdown(text).textContent).toContain('$$');
  });
});
