import { describe, expect, it } from 'vitest';
import type { Node as PMNode } from '@tiptap/pm/model';
import { parseMarkdown } from '../../markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../markdown/serializeMarkdown.ts';
import { roundtrip } from '../../markdown/test/fidelity.ts';

function tags(doc: PMNode): unknown[] {
  const found: unknown[] = [];
  doc.descendants((node) => {
    if (node.type.name === 'tag') found.push(node.attrs.name);
  });
  return found;
}

describe('tags #tag', () => {
  it('reads tags and nested tags, not C#, issue numbers or anchors', () => {
    const text = 'Tagged #idea and #area/health (#x) but not C# or #12 or [a](#anchor).\n';
    expect(tags(parseMarkdown(text))).toEqual(['idea', 'area/health', 'x']);
    expect(roundtrip(text)).toBe(text);
    expect(tags(parseMarkdown('An entity &#35;hash.\n'))).toEqual([]);
  });

  it('keeps a tag in a heading and a list', () => {
    for (const text of ['## Plans #todo\n', '- #inbox item\n']) {
      expect(roundtrip(text)).toBe(text);
    }
  });

  it('escapes # in text only where it would start a tag', () => {
    const schema = parseMarkdown('').type.schema;
    const doc = (text: string) =>
      schema.node('doc', null, [schema.node('paragraph', null, [schema.text(text)])]);
    expect(serializeMarkdown(doc('a #b c#d #1'))).toBe('a \\#b c#d #1\n');
    expect(parseMarkdown('a \\#b c#d #1').textContent).toBe('a #b c#d #1');
  });

  it('gives its source as the text of the node, for search', () => {
    const doc = parseMarkdown('Look #here\n');
    expect(doc.textBetween(0, doc.content.size, '\n')).toBe('Look #here');
  });
});
