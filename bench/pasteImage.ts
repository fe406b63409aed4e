import type { Page } from 'playwright-core';
import { AppUnavailableError, openInkwell, startApp, type RunningApp } from './app.ts';
import { withBrowser } from './browser.ts';
import { buildPages } from './pages/build.ts';
import { printFigures, skippedReport, type BenchReport, type Figure } from './report.ts';
import { formatMs, median } from './stats.ts';

const NAME = 'pasteImage';
const BASELINE = 'the same bytes, bare';
const RUNS = 5;
/** A photo-sized screenshot: noise compresses badly, so the PNG is a few megabytes. */
const WIDTH = 1600;
const HEIGHT = 1000;
const TIMEOUT_MS = 60_000;

/** One paste, timed in the page from the paste event. */
interface PasteTimings {
  /** The local preview decoded and in the document. */
  shown: number;
  /** The uploaded image's address in the document. */
  uploaded: number;
  /** The status bar says Saved. */
  saved: number;
  /** Baseline: the same blob decoded into a detached <img>. */
  bareShown: number;
  /** Baseline: the same bytes sent by fetch to POST /api/files. */
  bareUploaded: number;
  bytes: number;
}

/**
 * Pastes a PNG of random pixels into a new document and times the local preview, the upload
 * and the save; the same page then decodes the same blob into a plain image and posts the same
 * bytes straight to the API, as the baseline of each.
 */
async function pasteOnce(page: Page): Promise<PasteTimings> {
  // tsx names the functions defined inside the callback with a helper the page lacks.
  await page.evaluate('globalThis.__name = (f) => f');
  return page.evaluate(
    async ({ width, height, timeout }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      const pixels = context.createImageData(width, height);
      for (let i = 0; i < pixels.data.length; i++) pixels.data[i] = (i * 2654435761) >>> 24;
      context.putImageData(pixels, 0, 0);
      const blob = await new Promise<Blob>((resolve, reject) =>
        canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no blob'))), 'image/png'),
      );
      const until = (check: () => boolean) =>
        new Promise<number>((resolve, reject) => {
          const deadline = performance.now() + timeout;
          const poll = () => {
            if (check()) resolve(performance.now());
            else if (performance.now() > deadline) reject(new Error('timed out'));
            else requestAnimationFrame(poll);
          };
          poll();
        });
      const editor = document.querySelector('.ProseMirror');
      if (!editor) throw new Error('no editor');
      const transfer = new DataTransfer();
      transfer.items.add(new File([blob], 'shot.png', { type: 'image/png' }));
      const start = performance.now();
      editor.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
      const shownAt = await until(() => {
        const preview = editor.querySelector<HTMLImageElement>('.ink-upload img');
        const done = editor.querySelector('img[src^="/files/"]');
        return Boolean(done) || Boolean(preview?.complete && preview.naturalWidth > 0);
      });
      const uploadedAt = await until(() => editor.querySelector('img[src^="/files/"]') !== null);
      const savedAt = await until(() =>
        [...document.querySelectorAll('[role=status]')].some(
          (e) => e.textContent?.trim() === 'Saved',
        ),
      );

      const bareStart = performance.now();
      const image = new Image();
      const url = URL.createObjectURL(blob);
      image.src = url;
      await image.decode();
      const bareShown = performance.now() - bareStart;
      URL.revokeObjectURL(url);
      const postStart = performance.now();
      const response = await fetch('/api/files?name=shot.png', {
        method: 'POST',
        body: blob,
        headers: { 'X-Inkwell-Request': '1' },
      });
      if (response.status !== 201) throw new Error(`upload answered ${response.status}`);
      const bareUploaded = performance.now() - postStart;
      return {
        shown: shownAt - start,
        uploaded: uploadedAt - start,
        saved: savedAt - start,
        bareShown,
        bareUploaded,
        bytes: blob.size,
      };
    },
    { width: WIDTH, height: HEIGHT, timeout: TIMEOUT_MS },
  );
}

/**
 * Paste of a photo-sized screenshot into the editor: time to the local preview shown and to the
 * uploaded image saved, each beside the same work done bare in the same page (the blob decoded
 * into an image; the bytes posted to the same endpoint).
 */
export async function pasteImage(): Promise<BenchReport> {
  const pages = await buildPages();
  let app: RunningApp;
  try {
    app = await startApp();
  } catch (error) {
    if (!(error instanceof AppUnavailableError)) throw error;
    return skippedReport(NAME, BASELINE, error.message);
  }
  const runs: PasteTimings[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const timings = await withBrowser(async (context) =>
        pasteOnce(await openInkwell(context, app, pages.probePath)),
      );
      runs.push(timings);
      console.log(
        `  run ${run + 1}: ${(timings.bytes / 1e6).toFixed(1)} MB PNG, preview ${formatMs(timings.shown)} ` +
          `(bare ${formatMs(timings.bareShown)}), uploaded ${formatMs(timings.uploaded)}, ` +
          `saved ${formatMs(timings.saved)} (bare upload ${formatMs(timings.bareUploaded)})`,
      );
    }
  } finally {
    await app.stop();
  }
  const of = (pick: (t: PasteTimings) => number) => median(runs.map(pick));
  const figures: Figure[] = [
    {
      label: `paste → preview shown, median of ${RUNS}`,
      value: of((t) => t.shown),
      baseline: of((t) => t.bareShown),
      unit: 'ms',
    },
    {
      label: `paste → uploaded image in the document, median of ${RUNS}`,
      value: of((t) => t.uploaded),
      baseline: of((t) => t.bareUploaded),
      unit: 'ms',
    },
    {
      // Until the status bar says Saved: the server has the image's node.
      label: `paste → image saved, median of ${RUNS}`,
      value: of((t) => t.saved),
      baseline: of((t) => t.bareUploaded),
      unit: 'ms',
    },
  ];
  printFigures(figures, BASELINE);
  return { name: NAME, baselineName: BASELINE, figures };
}
