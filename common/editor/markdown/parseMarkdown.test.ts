import { describe, expect, it } from 'vitest';
import { MAX_DEPTH } from '../../api/limits.ts';
import { measureDepth } from '../documentDepth.ts';
import { sanitizeDocJson } from '../sanitizeDocJson.ts';
import { MarkdownImportError } from './decode.ts';
import { MarkdownTooDeepError } from './MarkdownTooDeepError.ts';
import { parseMarkdown, parseMarkdownFragment } from './parseMarkdown.ts';
import { serializeMarkdown } from './serializeMarkdown.ts';

/** `levels` bullet lists, one inside the other, an item each. */
function nestedList(levels: number): string {
  return Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}- item ${i + 1}\n`).join('');
}

/** What parseMarkdown throws for `markdown`. */
function refusal(markdown: string): unknown {
  try {
    parseMarkdown(markdown);
  } catch (error) {
    return error;
  }
  throw new Error('the Markdown was accepted');
}

/** The refusal of a too-deep block starting on `line`. */
const tooDeepAt = (line: number) =>
  expect.objectContaining({
    name: 'MarkdownTooDeepError',
    code: 'too_deep',
    line,
    message:
      `Line ${line} nests blocks more than 100 levels deep (each quote counts 1, each list ` +
      'level 2); Inkwell accepts at most 100.',
  });

describe('parseMarkdown at the nesting limit', () => {
  it('refuses quotes nested past the limit, naming the line, instead of dropping their text', () => {
    const error = refusal(`Intro\n\n${'>'.repeat(MAX_DEPTH)} deep\n\nAfter\n`);
    expect(error).toBeInstanceOf(MarkdownTooDeepError);
    // Import and paste show a MarkdownImportError's message as it is.
    expect(error).toBeInstanceOf(MarkdownImportError);
    expect(error).toEqual(tooDeepAt(3));
  });

  it('refuses 20,000 nested quotes', () => {
    expect(refusal(`${'>'.repeat(20_000)} deep\n`)).toEqual(tooDeepAt(1));
  });

  it('refuses lists nested past the limit instead of dropping every line after them', () => {
    // 50 lists and their items hold the 50th item's text 101 levels down.
    expect(refusal(`Intro\n\n${nestedList(50)}\nAfter\n`)).toEqual(tooDeepAt(52));
    expect(refusal(`${nestedList(300)}\nAfter\n`)).toEqual(tooDeepAt(50));
  });

  it('refuses an empty quote whose filler paragraph would pass the limit', () => {
    expect(refusal(`${'>'.repeat(MAX_DEPTH)}\n`)).toEqual(tooDeepAt(1));
  });

  it('refuses raw HTML and code placed past the limit', () => {
    const deep = '> '.repeat(MAX_DEPTH);
    expect(refusal(`${deep}<div>x</div>\n`)).toEqual(tooDeepAt(1));
    expect(refusal(`a\n\n${deep}    code\n`)).toEqual(tooDeepAt(3));
  });

  it('refuses a table whose cells pass the limit', () => {
    const table = (quotes: number) =>
      ['| a |', '| - |', '| b |'].map((row) => `${'>'.repeat(quotes)} ${row}\n`).join('');
    // Quotes, table, row, cell, paragraph.
    expect(measureDepth(parseMarkdown(table(MAX_DEPTH - 4)).toJSON()).depth).toBe(MAX_DEPTH);
    expect(refusal(table(MAX_DEPTH - 3))).toEqual(tooDeepAt(1));
  });

  it('accepts quotes and lists exactly at the limit, and they round-trip whole', () => {
    // A list level is 2, so 49 lists (and the innermost paragraph) are the deepest that fit.
    const samples: [string, number][] = [
      [`${'>'.repeat(MAX_DEPTH - 1)} deep\n`, MAX_DEPTH],
      [`${'>'.repeat(MAX_DEPTH - 1)}\n`, MAX_DEPTH],
      [`${nestedList(49)}\nAfter\n`, MAX_DEPTH - 1],
    ];
    for (const [markdown, depth] of samples) {
      const doc = parseMarkdown(markdown);
      expect(measureDepth(doc.toJSON()).depth, markdown).toBe(depth);
      // A save takes what an import made.
      expect(() => sanitizeDocJson(doc.toJSON()), markdown).not.toThrow();
      const exported = serializeMarkdown(doc);
      expect(parseMarkdown(exported).toJSON(), markdown).toEqual(doc.toJSON());
    }
    expect(parseMarkdown(`${nestedList(49)}\nAfter\n`).textContent).toContain('item 49After');
  });

  it('keeps emphasis, links and HTML nested thousands deep whole: they are marks or one node, not levels', () => {
    const emphasis = `${'*a '.repeat(5_000)}x${' a*'.repeat(5_000)}\n\nAfter\n`;
    const text = parseMarkdown(emphasis).textContent;
    expect(text).toHaveLength(5_000 * 4 + 1 + 'After'.length);
    const html = `${'<div>'.repeat(20_000)}x${'</div>'.repeat(20_000)}\n\nAfter\n`;
    const doc = parseMarkdown(html);
    expect(doc.child(0).attrs.html).toBe(html.slice(0, html.indexOf('\n')));
    expect(doc.textContent).toBe('After');
  });
});

describe('parseMarkdown on text that is not text', () => {
  it('refuses a lone surrogate (pasted or from an AI answer), naming its line and column', () => {
    for (const [markdown, code, line, column] of [
      ['# Title\n\nA cut \ud83d emoji', 'D83D', 3, 7],
      ['\ude00 at the start', 'DE00', 1, 1],
      ['> quote\n> low \udc00', 'DC00', 2, 7],
    ] as const) {
      const error = refusal(markdown);
      expect(error).toBeInstanceOf(MarkdownImportError);
      expect(error).toMatchObject({
        code: 'not_text',
        message:
          `Line ${line}, column ${column} holds half of a character (a lone surrogate, ` +
          `U+${code}): the text was cut or damaged, so it cannot be read as Markdown.`,
      });
    }
  });

  it('refuses a NUL, naming its line, instead of reading it as U+FFFD', () => {
    expect(refusal('one\ntwo\u0000')).toMatchObject({
      code: 'not_text',
      message: expect.stringMatching(/^Line 2, column 4 holds a NUL character \(U\+0000\)/),
    });
  });

  it('refuses both the same way in an engine without String.prototype.isWellFormed', () => {
    const own = Object.getOwnPropertyDescriptor(String.prototype, 'isWellFormed');
    Reflect.deleteProperty(String.prototype, 'isWellFormed');
    try {
      expect('isWellFormed' in String.prototype).toBe(false);
      expect(refusal('ok\n\ud83d cut')).toMatchObject({
        code: 'not_text',
        message: expect.stringMatching(
          /^Line 2, column 1 holds half of a character \(a lone surrogate, U\+D83D\)/,
        ),
      });
      expect(refusal('a\u0000')).toMatchObject({ code: 'not_text' });
      expect(parseMarkdown('A pair \ud83d\ude00.').textContent).toBe('A pair \u{1F600}.');
    } finally {
      if (own) Object.defineProperty(String.prototype, 'isWellFormed', own);
    }
    expect(typeof ''.isWellFormed).toBe('function');
  });

  it('reads a whole surrogate pair as the character it is', () => {
    expect(parseMarkdown('An emoji \ud83d\ude00.').textContent).toBe('An emoji \u{1F600}.');
  });
});

describe('parseMarkdownFragment', () => {
  it('leaves out the layout of a file’s end, which would travel with the last block', () => {
    // A file with no final newline keeps that; an answer or a paste put into a document does not.
    expect(parseMarkdown('**half** done').lastChild?.attrs.end).toBe('');
    const fragment = parseMarkdownFragment('**half** done');
    expect(fragment.lastChild?.attrs.end).toBeNull();
    const doc = parseMarkdown('before\n');
    const joined = doc.copy(doc.content.append(fragment.content));
    expect(serializeMarkdown(joined)).toBe('before\n\n**half** done\n');
  });
});
