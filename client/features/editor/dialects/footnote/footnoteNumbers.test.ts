import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../../../../common/editor/markdown/parseMarkdown.ts';
import { indexFootnotes } from './footnoteNumbers.ts';

describe('indexFootnotes', () => {
  it('numbers labels by first reference, wherever the definitions are', () => {
    const doc = parseMarkdown('[^z]: Zed.\n\nB[^b] A[^z] B again[^b].\n\n[^b]: Bee.\n');
    const index = indexFootnotes(doc);
    expect([...index.numbers]).toEqual([
      ['b', 1],
      ['z', 2],
    ]);
    expect(index.refs.map((r) => r.label)).toEqual(['b', 'z', 'b']);
    expect(doc.nodeAt(index.definitions.get('z')!)?.type.name).toBe('footnoteDefinition');
    expect(doc.nodeAt(index.definitions.get('b')!)?.attrs.label).toBe('b');
  });

  it('numbers inline footnotes in the same sequence', () => {
    const index = indexFootnotes(parseMarkdown('A[^a] B^[inline] C[^c] D[^a]\n'));
    expect([...index.numbers]).toEqual([
      ['a', 1],
      ['c', 3],
    ]);
    expect(index.inline.map((i) => i.number)).toEqual([2]);
  });
});
