import { describe, expect, it } from 'vitest';
import type { Node as PMNode } from '@tiptap/pm/model';
import { parseMarkdown } from '../../markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../markdown/serializeMarkdown.ts';
import { calloutAttrs } from './Callout.ts';
import { calloutFamily } from './calloutTypes.ts';

const roundtrip = (markdown: string) => serializeMarkdown(parseMarkdown(markdown));

function callouts(doc: PMNode): PMNode[] {
  const found: PMNode[] = [];
  doc.descendants((node) => {
    if (node.type.name === 'callout') found.push(node);
  });
  return found;
}

describe('callouts and alerts', () => {
  it('reads the type, fold marker and title as written, and the rest as blocks', () => {
    const doc = parseMarkdown('> [!tip]- Folded *title*\n> Body **text**.\n');
    doc.check();
    const callout = doc.firstChild!;
    expect(callout.type.name).toBe('callout');
    expect(calloutAttrs(callout.attrs)).toEqual({
      type: 'tip',
      fold: '-',
      title: 'Folded *title*',
    });
    expect(callout.childCount).toBe(1);
    expect(callout.firstChild!.textContent).toBe('Body text.');
  });

  it('reads a GitHub alert with its type in upper case and no title', () => {
    const doc = parseMarkdown('> [!WARNING]\n> Mind the gap.\n');
    expect(calloutAttrs(doc.firstChild!.attrs)).toEqual({ type: 'WARNING', fold: '', title: '' });
  });

  it('leaves a quote without a [!type] first line a quote', () => {
    for (const markdown of ['> Just [!note] later.\n', '> text\n>\n> [!note] second\n']) {
      expect(parseMarkdown(markdown).firstChild!.type.name, markdown).toBe('blockquote');
      expect(callouts(parseMarkdown(markdown)), markdown).toHaveLength(0);
    }
  });

  it('gives every Obsidian alias its family, in any case, and unknown types the note family', () => {
    expect(calloutFamily('tldr')).toBe('abstract');
    expect(calloutFamily('FAQ')).toBe('question');
    expect(calloutFamily('CAUTION')).toBe('warning');
    expect(calloutFamily('cite')).toBe('quote');
    expect(calloutFamily('my-own')).toBe('note');
  });

  const cases: Array<[string, string]> = [
    ['a callout alone', '> [!note] Title\n> Some text.\n'],
    ['a header-only callout', '> [!important]\n'],
    ['a foldable open callout', '> [!example]+ Back-of-the-envelope\n> Numbers.\n'],
    [
      'every GitHub alert',
      '> [!NOTE]\n> a\n\n> [!TIP]\n> b\n\n> [!IMPORTANT]\n> c\n\n> [!WARNING]\n> d\n\n> [!CAUTION]\n> e\n',
    ],
    ['a custom type', '> [!my-type] Custom\n> text\n'],
    [
      'nested callouts',
      '> [!note] Outer\n> Outer text.\n>\n> > [!warning]- Inner\n> > Inner text.\n>\n> After.\n',
    ],
    [
      'a callout holding a list, code and a table',
      '> [!todo] Before leaving\n> - [ ] Keys\n> - [x] Passport\n>\n> ```sh\n> echo hi\n> ```\n>\n> | a | b |\n> | --- | --- |\n> | 1 | 2 |\n',
    ],
    [
      'a GitHub alert inside a list item',
      '- Step one\n\n  > [!NOTE]\n  > Read this first.\n\n- Step two\n',
    ],
    ['a callout after a plain quote', '> plain quote\n\n> [!quote] Overheard\n> on the tram\n'],
  ];
  for (const [name, markdown] of cases) {
    it(`writes back ${name} byte for byte`, () => {
      const doc = parseMarkdown(markdown);
      doc.check();
      expect(callouts(doc).length).toBeGreaterThan(0);
      expect(roundtrip(markdown)).toBe(markdown);
    });
  }

  it('keeps a quote that starts with an escaped \\[!note\\] a quote through a round trip', () => {
    const markdown = '> \\[!note] not a callout\n';
    const doc = parseMarkdown(markdown);
    expect(doc.firstChild!.type.name).toBe('blockquote');
    expect(parseMarkdown(roundtrip(markdown)).toJSON()).toEqual(doc.toJSON());
  });
});
