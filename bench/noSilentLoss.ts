import {
  countLosses,
  lossReport,
  namedSlipNotes,
  slipTable,
} from '../common/editor/markdown/test/silentLoss.ts';
import { slipNotes } from '../common/editor/markdown/test/slipNotes.ts';
import { vaultNotes } from '../common/editor/markdown/test/vaultNotes.ts';
import type { Fixtures } from './fixtures.ts';
import { printFigures, type BenchReport, type Figure } from './report.ts';

const NAME = 'noSilentLoss';
const BASELINE = 'notes tried';
/** Many more than the 300 of the unit test's fixed seed, to find slips that one misses. */
const NOTES = 5_000;

/**
 * The property test of common/editor/markdown/noSilentLoss.test.ts at length, with a new seed
 * each run (printed, so that a failure can be replayed by putting it in the test's SEED, or in
 * NO_SILENT_LOSS_SEED to run the same notes here again): test vault notes with slips typed into
 * them, imported as files and as pastes, must keep every word or be refused with a message
 * (docs/PRODUCT.md, "Markdown").
 */
export async function noSilentLoss(_fixtures: Fixtures): Promise<BenchReport> {
  const given = process.env.NO_SILENT_LOSS_SEED;
  const seed = given ? Number(given) : Date.now() % 2 ** 31;
  const slipped = slipNotes(vaultNotes(), seed, NOTES);
  const notes = namedSlipNotes(slipped);
  console.log(`seed ${seed}, ${NOTES.toLocaleString('en-US')} notes with 1 to 3 slips each`);
  const figures: Figure[] = [];
  for (const path of ['file', 'paste'] as const) {
    const started = performance.now();
    const { lost, refused } = countLosses(notes, {}, path);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(lossReport(`As a ${path} (${seconds} s)`, notes.length, lost, 10));
    console.log(`  refused with a message: ${refused}`);
    if (lost.length > 0) {
      console.log('  notes losing words / notes with the slip:');
      console.log(slipTable(slipped, lost).join('\n'));
    }
    figures.push(
      {
        label: `${path}: notes losing words`,
        value: lost.length,
        baseline: NOTES,
        unit: 'count',
        limit: 0,
      },
      { label: `${path}: refused with a message`, value: refused, baseline: NOTES, unit: 'count' },
    );
  }
  printFigures(figures, BASELINE);
  return { name: NAME, baselineName: BASELINE, figures };
}
