import { describe, expect, it } from 'vitest';
import { changedLines } from './test/changedLines.ts';
import {
  CONSTRUCT_KINDS,
  countConstructs,
  lostConstructs,
  tally,
  type ConstructKind,
} from './test/countConstructs.ts';
import { roundtrip } from './test/fidelity.ts';
import { vaultNotes } from './test/vaultNotes.ts';

interface VaultFigures {
  notes: number;
  found: Record<ConstructKind, number>;
  kept: Record<ConstructKind, number>;
  lines: number;
  changedLines: number;
  /** The notes with the most changed lines, for the report. */
  worst: string[];
  /** The first construct of each kind that was not kept, with its note. */
  examples: Partial<Record<ConstructKind, string>>;
}

let figures: VaultFigures | undefined;

/** Round-trips every vault note once and adds up what was kept. */
function measure(): VaultFigures {
  if (figures) return figures;
  const zero = () =>
    Object.fromEntries(CONSTRUCT_KINDS.map((k) => [k, 0])) as Record<ConstructKind, number>;
  const found = zero();
  const kept = zero();
  let lines = 0;
  let changed = 0;
  const perNote: Array<[string, number, number]> = [];
  const examples: Partial<Record<ConstructKind, string>> = {};
  const notes = vaultNotes();
  for (const note of notes) {
    const output = roundtrip(note.text);
    const before = tally(countConstructs(note.text));
    const lost = lostConstructs(note.text, output);
    for (const kind of CONSTRUCT_KINDS) {
      found[kind] += before[kind];
      kept[kind] += before[kind] - lost[kind].length;
      const first = lost[kind][0];
      if (first !== undefined)
        examples[kind] ??= `${note.name}: ${first.split('\n')[0]!.slice(0, 70)}`;
    }
    const change = changedLines(note.text, output);
    lines += change.lines;
    changed += change.changed;
    perNote.push([note.name, change.changed, change.lines]);
  }
  const worst = perNote
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, c, l]) => `  ${name}: ${c}/${l} lines changed`);
  figures = { notes: notes.length, found, kept, lines, changedLines: changed, worst, examples };
  return figures;
}

const percent = (part: number, whole: number) => (whole === 0 ? 100 : (part / whole) * 100);

function keptShare(f: VaultFigures): number {
  const sum = (r: Record<ConstructKind, number>) => CONSTRUCT_KINDS.reduce((s, k) => s + r[k], 0);
  return percent(sum(f.kept), sum(f.found));
}

describe('Obsidian, GitHub and docs-site Markdown (the test vault) through import → export', () => {
  it('has every dialect construct in the corpus, and reports how many survive', () => {
    const f = measure();
    const rows = CONSTRUCT_KINDS.map(
      (kind) =>
        `  ${kind.padEnd(20)} ${String(f.kept[kind]).padStart(4)}/${String(f.found[kind]).padEnd(4)}` +
        ` ${percent(f.kept[kind], f.found[kind]).toFixed(0).padStart(3)}%` +
        (f.examples[kind] ? `  lost e.g. ${f.examples[kind]}` : ''),
    );
    console.log(
      [
        `Vault: ${f.notes} notes. Constructs kept verbatim, by kind:`,
        ...rows,
        `  total: ${keptShare(f).toFixed(1)}%`,
        `Lines changed: ${f.changedLines}/${f.lines} (${percent(f.changedLines, f.lines).toFixed(1)}%)`,
        ...f.worst,
      ].join('\n'),
    );
    expect(f.notes).toBeGreaterThanOrEqual(40);
    for (const kind of CONSTRUCT_KINDS) expect(f.found[kind], kind).toBeGreaterThan(0);
  });

  it('keeps at least 99% of the constructs verbatim', () => {
    expect(keptShare(measure())).toBeGreaterThanOrEqual(99);
  });

  it('changes at most 3% of the lines (bullets written as - do not count)', () => {
    const f = measure();
    expect(percent(f.changedLines, f.lines)).toBeLessThanOrEqual(3);
  });
});
