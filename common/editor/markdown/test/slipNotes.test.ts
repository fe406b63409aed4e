import { describe, expect, it } from 'vitest';
import { countWords } from './missingWords.ts';
import { slipNotes } from './slipNotes.ts';

const notes = [
  { name: 'a.md', text: '# A\n\nSome words here.\n\n- one\n- two\n' },
  { name: 'b.md', text: 'Another note with [[a link]] and `code`.\n' },
];

describe('slipNotes', () => {
  it('makes the same notes from the same seed', () => {
    expect(slipNotes(notes, 7, 20)).toEqual(slipNotes(notes, 7, 20));
    expect(slipNotes(notes, 7, 20)).not.toEqual(slipNotes(notes, 8, 20));
  });

  it('only inserts, so every word of the original note is still there', () => {
    for (const note of slipNotes(notes, 3, 200)) {
      const original = countWords(notes.find((n) => n.name === note.from)!.text);
      const slipped = countWords(note.text);
      for (const [word, count] of original)
        expect(slipped.get(word) ?? 0).toBeGreaterThanOrEqual(count);
      expect(note.slips.length).toBeGreaterThanOrEqual(1);
      expect(note.text).not.toBe(notes.find((n) => n.name === note.from)!.text);
    }
  });

  it('makes every kind of slip, nesting past 100 levels, NUL and lone surrogates', () => {
    const made = slipNotes(notes, 11, 2000);
    const kinds = new Set(made.flatMap((note) => note.slips));
    expect(kinds.size).toBeGreaterThanOrEqual(21);
    expect(made.some((note) => note.text.includes('> '.repeat(101)))).toBe(true);
    expect(made.some((note) => note.text.includes('\u0000'))).toBe(true);
    expect(made.some((note) => /[\ud800-\udbff](?![\udc00-\udfff])/.test(note.text))).toBe(true);
  });
});
