import { describe, expect, it } from 'vitest';
import { countConstructs, keptConstructs, lostConstructs, tally } from './countConstructs.ts';

describe('countConstructs', () => {
  it('finds front matter only when it opens the first line', () => {
    expect(countConstructs('---\ntitle: A\ntags: [x]\n---\n\nText\n').frontMatter).toEqual([
      '---\ntitle: A\ntags: [x]\n---',
    ]);
    expect(countConstructs('Text\n\n---\ntitle: A\n---\n').frontMatter).toEqual([]);
  });

  it('tells wikilinks from embeds and keeps headings, aliases and block ids in the text', () => {
    const found = countConstructs('See [[A#H|alias]], [[B^id]] and ![[c.png|300]].');
    expect(found.wikilink).toEqual(['[[A#H|alias]]', '[[B^id]]']);
    expect(found.embed).toEqual(['![[c.png|300]]']);
  });

  it('ignores constructs inside fenced code and inline code', () => {
    const source =
      '`[[A]]` and ``$x$ ==y==``\n\n```\n[[B]] #tag %%c%%\n```\n\n~~~md\n> [!note]\n~~~\n';
    const counts = tally(countConstructs(source));
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
  });

  it('counts a mermaid block as a whole, fence included', () => {
    const found = countConstructs('```mermaid\ngraph LR\n  A --> B\n```\n');
    expect(found.mermaid).toEqual(['```mermaid\ngraph LR\n  A --> B\n```']);
  });

  it('separates GitHub alerts from Obsidian callouts, nested ones included', () => {
    const source = [
      '> [!NOTE]',
      '> text',
      '',
      '> [!note] Title',
      '> > [!tip]- Folded',
      '',
      '> [!WARNING] With a title is a callout',
    ].join('\n');
    const found = countConstructs(source);
    expect(found.alert).toEqual(['[!NOTE]']);
    expect(found.callout).toEqual([
      '[!note] Title',
      '[!tip]- Folded',
      '[!WARNING] With a title is a callout',
    ]);
  });

  it('counts footnote references, definitions and inline footnotes apart', () => {
    const source = 'A[^1] b[^named] c^[inline\nwrapped].\n\n[^1]: One.\n[^named]: Two.\n';
    const found = countConstructs(source);
    expect(found.footnoteRef).toEqual(['[^1]', '[^named]']);
    expect(found.footnoteDef).toEqual(['[^1]: One.', '[^named]: Two.']);
    expect(found.inlineFootnote).toEqual(['^[inline\nwrapped]']);
  });

  it('takes display math whole and does not read prices as inline math', () => {
    const source = 'Cost $5 and $10. Then $a\\,b$ and\n\n$$\n\\frac{1}{2} \\\\ x\n$$\n';
    const found = countConstructs(source);
    expect(found.inlineMath).toEqual(['$a\\,b$']);
    expect(found.displayMath).toEqual(['$$\n\\frac{1}{2} \\\\ x\n$$']);
  });

  it('finds highlights, comments, block ids and tags but not headings or numbers', () => {
    const source =
      '# Heading\n\n==hi== %%secret #hidden%% text #tag #a/b #1 x#y ^block-1\n\n%%\nblock\n%%\n';
    const found = countConstructs(source);
    expect(found.highlight).toEqual(['==hi==']);
    expect(found.comment).toEqual(['%%secret #hidden%%', '%%\nblock\n%%']);
    expect(found.tag).toEqual(['#tag', '#a/b']);
    expect(found.blockId).toEqual(['^block-1']);
  });

  it('does not read a link to an anchor as a tag', () => {
    expect(countConstructs('[top](#top) and (#aside)').tag).toEqual(['#aside']);
  });

  it('counts reference links only for shortcut labels that are defined', () => {
    const source =
      'A [text][ref], [Ref][] and [ref], not [other] or [x](url).\n\n[ref]: https://example.com "T"\n';
    const found = countConstructs(source);
    expect(found.referenceDefinition).toEqual(['[ref]: https://example.com "T"']);
    expect(found.referenceLink).toEqual(['[text][ref]', '[Ref][]', '[ref]']);
  });
});

describe('keptConstructs', () => {
  it('counts each construct as kept as many times as it reappears verbatim', () => {
    const source = '[[A]] [[A]] [[B]] ==x== $y$';
    const output = '[[A]] \\[\\[B\\]\\] ==x== $ y$';
    const kept = keptConstructs(source, output);
    expect(kept.wikilink).toBe(1);
    expect(kept.highlight).toBe(1);
    expect(kept.inlineMath).toBe(0);
  });

  it('lists the constructs that were not kept', () => {
    const lost = lostConstructs('[[A]] [[A]] [[B]] #t', '[[A]] #t');
    expect(lost.wikilink).toEqual(['[[A]]', '[[B]]']);
    expect(lost.tag).toEqual([]);
  });

  it('does not count a construct that the output moved into code', () => {
    expect(keptConstructs('#tag', '`#tag`').tag).toBe(0);
  });
});
