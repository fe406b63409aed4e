import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../extensions.ts';
import { sanitizeDocJson } from '../sanitizeDocJson.ts';
import { parseMarkdown } from './parseMarkdown.ts';
import { serializeMarkdown } from './serializeMarkdown.ts';

const roundtrip = (markdown: string) => serializeMarkdown(parseMarkdown(markdown));

/** Expects each text to come back byte for byte, and its export to read as the same document. */
function expectKept(...markdowns: string[]): void {
  for (const markdown of markdowns) {
    const doc = parseMarkdown(markdown);
    doc.check();
    const exported = serializeMarkdown(doc);
    expect(exported, JSON.stringify(markdown)).toBe(markdown);
    expect(parseMarkdown(exported).toJSON()).toEqual(doc.toJSON());
  }
}

describe('the blanks and blank lines a file was laid out with, through import → export', () => {
  it('keeps the blanks at the end of a paragraph or heading, in quotes and lists too', () => {
    expectKept(
      'A sentence with a space after it. \n\nNext.\n',
      '# Title \n\nText.\n',
      'Title \n=====\n',
      '> Quoted, with a space after. \n',
      '- an item with two blanks after it, which end no line  \n- and another\n',
    );
  });

  it('keeps one blank at the end of a wrapped line and the blanks starting the next', () => {
    expectKept(
      'A tab ends this line\t\nand the next.\n',
      'A rule with blanks after it:\n\n---  \n\nUnderlined\n===  \n',
      'A line with a space \nat its end.\n',
      'A line\n   indented on the next.\n',
      '- an item\n    wrapped deeper than its text\n',
      'A hard break  \n  then an indented line.\n',
      '> quoted \n> lines\n',
    );
  });

  it('keeps runs of blank lines, and blank lines that hold blanks', () => {
    expectKept(
      'One.\n\n\nTwo, after two blank lines.\n',
      'One.\n \nTwo, after a line holding a space.\n',
      '- a\n\n\n- b\n',
      '- a\n- b\n\n- c\n',
      '> a\n>\n>\n> b\n',
      '- item\n  \n  more of the item\n',
    );
  });

  it('writes Windows line endings as newlines, and keeps the blank lines between them', () => {
    expect(roundtrip('Windows\r\nline endings,\r\n\r\n\r\nblank lines.\r\n')).toBe(
      'Windows\nline endings,\n\n\nblank lines.\n',
    );
  });

  it('keeps how the file starts and ends: blank lines, or no newline at the end', () => {
    expectKept('No newline at the end.', 'Blank lines after.\n\n\n', '> a quote ending blank\n>\n');
    expectKept(
      '\n \nBlank lines before.\n',
      '---\ntags: [a]\n---\n\n\nTwo blank lines after it.\n',
    );
  });

  it('counts as opening the file only blank lines, not the wrapper an aligned heading came in', () => {
    expectKept(
      '<div align="center">\n\n# Centred\n\n</div>\n\nText.\n',
      '\n\n<div align="center">\n\n# Centred\n\n</div>\n\nText.\n',
    );
  });

  it('keeps the blanks after a list marker, on empty items too', () => {
    expectKept(
      '-   pandoc style\n-   items\n',
      '1.  one\n2.  two\n    and its wrapped line\n',
      '- \n',
      '- [ ] \n',
      '-   [ ] a task\n',
    );
  });

  it('keeps nested lists indented with a tab, as Obsidian writes them', () => {
    expectKept(
      '- a\n\t- b\n\t\t- c\n- d\n',
      '1. one\n\t1. sub\n2. two\n',
      '- a\n\tA wrapped line.\n',
      '- a\n\n\tA second paragraph.\n',
      '1. step\n\t```sh\n\tls\n\t    indented code\n\t```\n',
      '- spaces\n    - deeper\n    \t- then a tab\n',
    );
  });

  it('writes a new item of a tab-indented list with a tab, and falls back to spaces', () => {
    const schema = inkwellSchema();
    type Json = { type?: string; text?: string; attrs?: Record<string, unknown>; content?: Json[] };
    const item = (text: string): Json => ({
      type: 'listItem',
      content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
    });
    const json = parseMarkdown('- a\n\t- b\n- d\n').toJSON() as Json;
    const [a, d] = json.content![0]!.content!;
    // An item split from `b` by Enter, and a sub-list made under `d`, which has none.
    a!.content![1]!.content!.push({ ...a!.content![1]!.content![0]!, ...item('new') });
    d!.content!.push({ type: 'bulletList', content: [item('sub')] });
    const edited = schema.nodeFromJSON(json);
    expect(serializeMarkdown(edited)).toBe('- a\n\t- b\n\t- new\n- d\n\t- sub\n');
    // An item whose marker no longer fits before the tab is written with spaces.
    const ordered = parseMarkdown('9. a\n\t- b\n').toJSON() as Json;
    ordered.content![0]!.attrs!.start = 100;
    const renumbered = serializeMarkdown(schema.nodeFromJSON(ordered));
    expect(renumbered).toMatch(/^100\. a\n +- b\n$/);
    expect(parseMarkdown(renumbered).firstChild!.firstChild!.childCount).toBe(2);
  });

  it("keeps `> ` on a quote's blank lines and the blanks around a callout's title", () => {
    expectKept(
      '> a\n> \n> b\n',
      '> [!tip] \n> Text.\n',
      '> [!note] Title \n> Text.\n',
      '> [!note]\n>\n> Text after a blank line.\n',
      '> [!abstract]\u00a0Title after a no-break space\n',
      '> [!example] \n> \n> ```md\n> code\n> \n> ```\n',
    );
  });

  it('keeps a line that continues a paragraph lazily, as an Obsidian block id after a quote', () => {
    expectKept(
      '> A quote.\n^quote-id\n',
      '> [!note] Title\n> Text.\n^callout-id\n',
      '- item\nlazy\n',
    );
  });

  it('keeps a block indented by up to three blanks, in a quote too', () => {
    expectKept(
      ' **Example**: indented by one.\n',
      ' > an indented quote\n > goes on\n',
      '  ---\n',
      '>  ```md\n>  code\n>  ```\n',
      '> text\n>\n>  - an indented list\n',
    );
  });

  it('keeps the blanks after the #s of a heading', () => {
    expectKept('##  Two blanks\n', '###\tA tab\n');
  });

  it('keeps a line of text under a table (a row of one cell), and a heading right after one', () => {
    expectKept(
      '| a | b |\n| - | - |\n| 1 | 2 |\nA line read as a row. \n',
      '| a |\n| - |\n| 1 |\n# Heading right under it\n',
    );
  });

  it('keeps a block on the line right under another where it reads back as its own', () => {
    expectKept(
      '1. Run:\n\n   ```sh\n   ls\n   ```\nThen look.\n',
      '```\ncode\n```\n<h1>HTML right under a fence</h1>\n',
      'Text %% with a comment %%\n<h1>HTML right under a paragraph</h1>\n',
      '| a |\n| - |\n| b |\n<div>HTML right under a table</div>\n',
      'Text right above\n$$\nx^2\n$$\n',
    );
  });

  it('leaves out escapes where a continued line reads as text anyway', () => {
    expectKept(
      '**Agenda**\n1. \n',
      'Counting on\n2. the second line\n',
      '*[YAML]: YAML Aint Markup Language\n',
    );
    // What would start a list or make a heading is still escaped.
    expect(roundtrip('Text\n1\\. item\n')).toBe('Text\n1\\. item\n');
    const schema = inkwellSchema();
    const text = (value: string) => schema.text(value);
    const continued = schema.node('paragraph', null, [
      text('Text'),
      schema.node('softBreak'),
      text('1. item'),
    ]);
    expect(serializeMarkdown(schema.node('doc', null, [continued]))).toBe('Text\n1\\. item\n');
  });

  it('refuses layout attributes that hold more than blanks, and writes without them', () => {
    const json = parseMarkdown('a\n\n\nb\n').toJSON() as {
      content: Array<{ attrs: Record<string, unknown> }>;
    };
    json.content[1]!.attrs.gap = '\n<script>\n';
    const clean = sanitizeDocJson(json)!;
    const doc = inkwellSchema().nodeFromJSON(clean);
    expect(doc.child(1).attrs.gap).toBeNull();
    json.content[1]!.attrs.gap = '\nx\n';
    expect(serializeMarkdown(inkwellSchema().nodeFromJSON(json))).toBe('a\n\nb\n');
  });

  it('writes a document whose text holds a NUL without the blanks of its blank lines', () => {
    const doc = parseMarkdown('a\n \nb\n');
    const schema = inkwellSchema();
    const withNul = doc.copy(
      doc.content.addToEnd(schema.node('paragraph', null, schema.text('\u0000'))),
    );
    expect(serializeMarkdown(withNul)).toBe('a\n\nb\n\n\u0000\n');
  });
});
