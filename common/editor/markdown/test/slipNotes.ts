import { seededRandom } from '../../../test/seededRandom.ts';

/** A note with slips typed into it, and what they were (for the failure message). */
export interface SlipNote {
  /** The note the slips were typed into. */
  from: string;
  /** Short descriptions of the slips, in the order they were made. */
  slips: string[];
  /** The note's text with the slips. */
  text: string;
}

type Draw = () => number;

/** Where a slip goes: at the start of a line (block slips) or between two words (inline slips). */
type Place = 'line' | 'inline';

interface Slip {
  name: string;
  place: Place;
  make: (draw: Draw) => string;
}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];

function pick<T>(draw: Draw, items: readonly T[]): T {
  return items[Math.floor(draw() * items.length)]!;
}

/** 1 to 150 levels: most a handful, about one in six past 100 (parsers cap nesting near there). */
function depth(draw: Draw): number {
  return draw() < 1 / 6 ? 100 + Math.floor(draw() * 51) : 1 + Math.floor(draw() * 12);
}

function phrase(draw: Draw): string {
  return Array.from({ length: 3 }, () => pick(draw, WORDS)).join(' ');
}

/** The slips people make, or paste in from elsewhere, that a Markdown import must survive. */
const SLIPS: Slip[] = [
  { name: 'unclosed <!--', place: 'line', make: () => '<!-- draft, finish later' },
  { name: 'unclosed inline <!--', place: 'inline', make: () => '<!--' },
  { name: '<?php', place: 'line', make: () => '<?php echo $title;' },
  { name: '<![CDATA[', place: 'line', make: () => '<![CDATA[ raw data' },
  { name: '<!DOCTYPE', place: 'line', make: () => '<!DOCTYPE html' },
  { name: 'unclosed <textarea>', place: 'line', make: () => '<textarea>' },
  { name: 'unclosed <div>', place: 'line', make: () => '<div class="note">' },
  { name: 'unclosed <details>', place: 'line', make: () => '<details><summary>More</summary>' },
  { name: 'inline <textarea>', place: 'inline', make: () => '<textarea>' },
  { name: 'stray [[', place: 'inline', make: () => '[[' },
  { name: 'stray ]]', place: 'inline', make: () => ']]' },
  { name: 'stray `', place: 'inline', make: () => '`' },
  { name: 'stray ```', place: 'line', make: () => '```' },
  { name: 'unclosed $$', place: 'line', make: () => '$$' },
  { name: 'inline $$', place: 'inline', make: () => '$$' },
  {
    name: 'nested list',
    place: 'line',
    make: (draw) =>
      Array.from({ length: depth(draw) }, (_, i) => `${'  '.repeat(i)}- ${pick(draw, WORDS)}`).join(
        '\n',
      ),
  },
  {
    name: 'nested quote',
    place: 'line',
    make: (draw) => `${'> '.repeat(depth(draw))}${phrase(draw)}`,
  },
  {
    name: 'nested emphasis',
    place: 'inline',
    make: (draw) => {
      const marks = Array.from({ length: depth(draw) }, () => pick(draw, ['*', '_', '**', '~~']));
      return `${marks.join('')}${phrase(draw)}${marks.reverse().join('')}`;
    },
  },
  { name: 'NUL', place: 'inline', make: () => '\u0000' },
  { name: 'lone high surrogate', place: 'inline', make: () => '\ud83d' },
  { name: 'lone low surrogate', place: 'inline', make: () => '\ude00' },
];

/** `text` with `insert` at a random line start or word gap. */
function insertAt(draw: Draw, text: string, insert: string, place: Place): string {
  const lines = text.split('\n');
  const row = Math.floor(draw() * (lines.length + 1));
  if (place === 'line' || row === lines.length) {
    lines.splice(row, 0, insert);
    return lines.join('\n');
  }
  const line = lines[row]!;
  const gaps = [0, ...[...line.matchAll(/ /g)].map((m) => m.index + 1), line.length];
  const at = pick(draw, gaps);
  lines[row] = line.slice(0, at) + insert + line.slice(at);
  return lines.join('\n');
}

/**
 * `count` notes made from `notes` with one to three slips each, the same for the same `seed`.
 * Slips are only ever inserted, so every word of the original note is still in the slipped one.
 */
export function slipNotes(
  notes: ReadonlyArray<{ name: string; text: string }>,
  seed: number,
  count: number,
): SlipNote[] {
  const draw = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const note = pick(draw, notes);
    let text = note.text;
    const slips: string[] = [];
    const howMany = 1 + Math.floor(draw() * 3);
    for (let i = 0; i < howMany; i++) {
      const slip = pick(draw, SLIPS);
      text = insertAt(draw, text, slip.make(draw), slip.place);
      slips.push(slip.name);
    }
    return { from: note.name, slips, text };
  });
}
