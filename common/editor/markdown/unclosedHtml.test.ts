import { describe, expect, it } from 'vitest';
import { parseMarkdown } from './parseMarkdown.ts';
import { serializeMarkdown } from './serializeMarkdown.ts';

const AFTER = 'First paragraph after.\n\nSecond paragraph after.\n\n- a list item\n';

/** Imports Markdown; returns what the document holds (text and raw HTML) and its export. */
function importAndExport(markdown: string): { held: string; exported: string; types: string[] } {
  const doc = parseMarkdown(markdown);
  doc.check();
  let held = '';
  const types: string[] = [];
  doc.forEach((node) => types.push(node.type.name));
  doc.descendants((node) => {
    if (node.isText) held += node.text;
    else if (typeof node.attrs.html === 'string') held += node.attrs.html;
    else if (node.type.name === 'linkDefinitions') held += String(node.attrs.markdown);
  });
  return { held, exported: serializeMarkdown(doc), types };
}

/** Every word of the text after the slip, in the document and in its export. */
function expectWordsKept(markdown: string, words: string[]): void {
  const { held, exported } = importAndExport(markdown);
  for (const word of words) {
    expect(held, `${word} in the document`).toContain(word);
    expect(exported, `${word} in the export`).toContain(word);
  }
  // The export reads back with the same words.
  const again = importAndExport(exported);
  for (const word of words) expect(again.held, `${word} after a round trip`).toContain(word);
}

const WORDS = ['First paragraph after', 'Second paragraph after', 'a list item'];

describe('importing an HTML block that was never closed', () => {
  it('keeps an unclosed comment and everything after it, as an inert comment', () => {
    const markdown = `Intro.\n\n<!-- fix this\n\n${AFTER}`;
    expectWordsKept(markdown, ['Intro.', 'fix this', ...WORDS]);
    expect(importAndExport(markdown).exported).toBe(markdown);
  });

  it('reads the text after an unclosed processing instruction as Markdown', () => {
    const markdown = `<?php echo $title;\n\n${AFTER}\n> a quote\n`;
    expectWordsKept(markdown, ['php echo $title;', ...WORDS, 'a quote']);
    expect(importAndExport(markdown).types).toEqual([
      'paragraph',
      'paragraph',
      'paragraph',
      'bulletList',
      'blockquote',
    ]);
  });

  it('reads the text after an unclosed CDATA section or doctype as Markdown', () => {
    expectWordsKept(`<![CDATA[ raw data\n\n${AFTER}`, ['raw data', ...WORDS]);
    expectWordsKept(`<!DOCTYPE html\n\n${AFTER}`, ['DOCTYPE html', ...WORDS]);
  });

  it('keeps the text of an unclosed textarea and reads what follows as Markdown', () => {
    const markdown = `<textarea>\nnotes <b>here</b>\n\n${AFTER}`;
    expectWordsKept(markdown, ['notes', 'here', ...WORDS]);
    expect(importAndExport(markdown).held).toContain('notes <b>here</b>');
    expect(importAndExport(markdown).types.at(-1)).toBe('bulletList');
  });

  it('removes only the content of an unclosed script or style, never what follows', () => {
    for (const slip of ['<script>\nalert(1)', '<style>\np { display: none }']) {
      const { held, exported, types } = importAndExport(`${slip}\n\n${AFTER}`);
      for (const word of WORDS) expect(held, slip).toContain(word);
      expect(exported, slip).not.toMatch(/alert|display: none|<script|<style/);
      expect(types, slip).toEqual(['paragraph', 'paragraph', 'bulletList']);
    }
  });

  it('leaves closed blocks as they were', () => {
    const markdown = `<!-- note -->\n\n<textarea>a</textarea>\n\n${AFTER}`;
    const { types } = importAndExport(markdown);
    expect(types[0]).toBe('htmlBlock');
    expect(types.slice(-3)).toEqual(['paragraph', 'paragraph', 'bulletList']);
  });
});

describe('importing a link reference definition that a slip cut off from its references', () => {
  const LINKS = '[Docs][docs] and [Blog][blog].\n';
  const DEFINITIONS = '[docs]: https://docs.example/start\n[blog]: https://blog.example/\n';

  it('keeps definitions read after an unclosed processing instruction as text', () => {
    expectWordsKept(`${LINKS}\n<?php echo $title;\n\n${DEFINITIONS}`, [
      'docs.example/start',
      'blog.example',
    ]);
  });

  it('keeps definitions read as the text of a textarea left open', () => {
    expectWordsKept(`${LINKS}\n<textarea>${DEFINITIONS}`, ['docs.example/start', 'blog.example']);
  });

  it('keeps definitions whose only references are in raw HTML as text', () => {
    const markdown = `<details><summary>More</summary>\n${LINKS}\n${DEFINITIONS}`;
    expectWordsKept(markdown, ['docs.example/start', 'blog.example']);
  });

  it('keeps a definition no reference names, written back as it was', () => {
    const markdown = `${LINKS}\n${DEFINITIONS}[unused]: https://unused.example/\n`;
    const { held, exported } = importAndExport(markdown);
    expect(held).toBe(`Docs and Blog.${DEFINITIONS}[unused]: https://unused.example/`);
    expect(exported).toBe(markdown);
  });
});

describe('importing a declaration', () => {
  it('keeps a closed doctype as raw HTML, written back as it was', () => {
    const markdown = '<!DOCTYPE html>\n\nText after.\n';
    expect(importAndExport(markdown).exported).toBe(markdown);
    expectWordsKept('Intro.\n<!DOCTYPE html\n> [!NOTE]\n> A quote.\n', ['DOCTYPE html', 'A quote']);
  });
});

describe('importing a table row with more cells than its header', () => {
  it('keeps the extra cells in the last cell, after a |, instead of dropping them', () => {
    const markdown = '| a | b |\n| - | - |\n| 1 | 2 | 3 |\n| x | y |z **w**\n';
    expectWordsKept(markdown, ['3', 'z']);
    expect(importAndExport(markdown).held).toContain('2 | 3xy | z w');
    expect(importAndExport(markdown).exported).toBe(
      '| a | b |\n| - | - |\n| 1 | 2 \\| 3 |\n| x | y \\| z **w** |\n',
    );
  });

  it('finds the extra cells of a row inside a quote', () => {
    const markdown = '> | q | r |\n> |---|---|\n> | 1 | 2 | 3 |\n';
    expectWordsKept(markdown, ['3']);
    expect(importAndExport(markdown).held).toContain('2 | 3');
  });
});
