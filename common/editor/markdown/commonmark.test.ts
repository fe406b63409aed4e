import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { normaliseHtml, reference, roundtrip } from './test/fidelity.ts';

interface SpecExample {
  markdown: string;
  html: string;
  section: string;
  number: number;
}

const require = createRequire(import.meta.url);
const { tests } = require('commonmark-spec') as { tests: SpecExample[] };
/** Examples whose export renders differently, each with the reason it is accepted. */
const known = JSON.parse(
  readFileSync(new URL('./testdata/commonmark-known.json', import.meta.url), 'utf8'),
) as Record<string, string>;

describe('CommonMark spec examples through import → export', () => {
  it('renders every example the same after the round trip, but the listed ones', () => {
    const unlisted: string[] = [];
    const fixed: number[] = [];
    let agree = 0;
    for (const example of tests) {
      const before = normaliseHtml(reference.render(example.markdown));
      let after: string;
      try {
        after = normaliseHtml(reference.render(roundtrip(example.markdown)));
      } catch (error) {
        after = `threw ${(error as Error).message}`;
      }
      const same = before === after;
      if (same) agree++;
      const reason = known[String(example.number)];
      if (!same && !reason) {
        unlisted.push(
          `#${example.number} (${example.section}): ${JSON.stringify(example.markdown)}\n  before: ${before}\n  after:  ${after}`,
        );
      }
      if (same && reason) fixed.push(example.number);
    }
    const share = ((agree / tests.length) * 100).toFixed(1);
    console.log(
      `CommonMark: ${agree}/${tests.length} examples (${share}%) render the same after import → export; ${Object.keys(known).length} listed with a reason`,
    );
    expect(unlisted, unlisted.join('\n')).toEqual([]);
    // The list stays true: an example that agrees again leaves it, so the figure cannot fall back.
    expect(fixed, 'listed but agreeing now: remove them from the list').toEqual([]);
  });
});
