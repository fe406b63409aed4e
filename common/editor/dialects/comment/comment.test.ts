import { describe, expect, it } from 'vitest';
import type { Node as PMNode } from '@tiptap/pm/model';
import { parseMarkdown } from '../../markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../markdown/serializeMarkdown.ts';
import { roundtrip } from '../../markdown/test/fidelity.ts';

function find(doc: PMNode, name: string): unknown[] {
  const found: unknown[] = [];
  doc.descendants((node) => {
    if (node.type.name === name) found.push(node.attrs.text);
  });
  return found;
}

describe('comments %%…%%', () => {
  it('keeps an inline comment verbatim, links and all', () => {
    const text = 'Draft %%(put this in the essay? [[Misc/Essay draft]])%% done.\n';
    expect(find(parseMarkdown(text), 'commentInline')).toEqual([
      '(put this in the essay? [[Misc/Essay draft]])',
    ]);
    expect(roundtrip(text)).toBe(text);
  });

  it('keeps a block comment over paragraphs verbatim', () => {
    const text = 'Before.\n\n%%\nHidden *plan*.\n\n- not a list\n%%\n\nAfter.\n';
    expect(find(parseMarkdown(text), 'commentBlock')).toEqual([
      '\nHidden *plan*.\n\n- not a list\n',
    ]);
    expect(roundtrip(text)).toBe(text);
  });

  it('escapes %% in text only where a comment would close', () => {
    const schema = parseMarkdown('').type.schema;
    const doc = (text: string) =>
      schema.node('doc', null, [schema.node('paragraph', null, [schema.text(text)])]);
    expect(serializeMarkdown(doc('100%% sure'))).toBe('100%% sure\n');
    const both = serializeMarkdown(doc('a %%b%% c'));
    expect(both).toBe('a \\%%b%% c\n');
    expect(parseMarkdown(both).textContent).toBe('a %%b%% c');
  });
});
