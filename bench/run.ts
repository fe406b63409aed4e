import { aiGateway } from './aiGateway.ts';
import { aiStream } from './aiStream.ts';
import { collabCrowd } from './collabCrowd.ts';
import { collabEcho } from './collabEcho.ts';
import { collabLoad } from './collabLoad.ts';
import { collabOpen } from './collabOpen.ts';
import { codecExport } from './codecExport.ts';
import { codecImport } from './codecImport.ts';
import { coldStart } from './coldStart.ts';
import { historyPanel } from './historyPanel.ts';
import { keystroke } from './keystroke.ts';
import { keystrokeCollab } from './keystrokeCollab.ts';
import { liveKeystroke } from './liveKeystroke.ts';
import { noSilentLoss } from './noSilentLoss.ts';
import { uiImport } from './uiImport.ts';
import { uploads } from './uploads.ts';
import { pasteImage } from './pasteImage.ts';
import { vault } from './vault.ts';
import { versions } from './versions.ts';
import { bundleSize } from './bundleSize.ts';
import { profile } from './profile.ts';
import { prepareFixtures, type Fixtures } from './fixtures.ts';
import { figureRows, table, type BenchReport } from './report.ts';
import { formatBytes } from './stats.ts';

/** Every benchmark, in the order a full run takes them. */
const BENCHMARKS: Record<string, (fixtures: Fixtures) => Promise<BenchReport>> = {
  codecImport,
  codecExport,
  keystroke,
  keystrokeCollab,
  liveKeystroke,
  uiImport,
  bundleSize,
  coldStart,
  aiGateway,
  aiStream,
  noSilentLoss,
  uploads: () => uploads(),
  pasteImage: () => pasteImage(),
  vault,
  collabLoad,
  collabEcho,
  collabOpen,
  collabCrowd,
  versions,
  historyPanel,
};

/** Run only when named: they explain figures rather than measure them. */
const ON_REQUEST: Record<string, (fixtures: Fixtures) => Promise<BenchReport>> = { profile };

function summary(reports: readonly BenchReport[]): string {
  const rows: string[][] = [['benchmark', 'figure', 'Inkwell', 'baseline', 'ratio', 'target', '']];
  for (const report of reports) {
    if (report.figures.length === 0 && report.skipped === undefined) {
      rows.push([report.name, 'see its output above', '', '', '', '', '']);
      continue;
    }
    if (report.skipped !== undefined) {
      rows.push([report.name, `skipped: ${report.skipped}`, '', '', '', '', '']);
      continue;
    }
    const [, ...body] = figureRows(report.figures, report.baselineName);
    body.forEach((row, i) =>
      rows.push([i === 0 ? `${report.name} (vs ${report.baselineName})` : '', ...row]),
    );
  }
  return table(rows, 2);
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const known = { ...BENCHMARKS, ...ON_REQUEST };
  const unknown = wanted.filter((name) => !(name in known));
  if (unknown.length > 0) {
    console.error(
      `Unknown benchmark: ${unknown.join(', ')}. Known: ${Object.keys(known).join(', ')}.`,
    );
    process.exit(2);
  }
  const names = wanted.length > 0 ? wanted : Object.keys(BENCHMARKS);
  const started = performance.now();
  const fixtures = await prepareFixtures();
  console.log(`Fixtures: ${fixtures.source}`);
  for (const f of [...fixtures.bySize, ...fixtures.byWords]) {
    console.log(`  ${f.name.padEnd(12)} ${formatBytes(f.bytes).padStart(9)}  ${f.words} words`);
  }
  const reports: BenchReport[] = [];
  let crashed = false;
  for (const name of names) {
    const benchmark = known[name];
    if (!benchmark) continue;
    console.log(`\n== ${name} ==`);
    try {
      reports.push(await benchmark(fixtures));
    } catch (error) {
      crashed = true;
      console.error(`${name} crashed:`, error);
      reports.push({ name, baselineName: '', figures: [], skipped: 'crashed (see above)' });
    }
  }
  console.log(`\n== Summary (${((performance.now() - started) / 1000).toFixed(0)} s) ==`);
  console.log(summary(reports));
  // A missed target is a finding, not a failure; only a crash fails the run.
  process.exitCode = crashed ? 1 : 0;
}

await main();
