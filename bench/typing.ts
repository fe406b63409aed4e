import type { Locator, Page } from 'playwright-core';
import { TOP_LEVEL_PARAGRAPHS, type KeystrokeSamples } from './pages/api.ts';

/** What is typed: 60 characters of prose, nothing an input rule would turn into markup. */
export const TEXT = 'the quick brown fox jumps over the lazy dog and keeps going ';
export const WARMUP_TEXT = 'warm ';
/** Between key down and key up, as a fast typist holds a key. */
export const KEY_DELAY_MS = 40;

/**
 * Lets the page settle, clicks a plain paragraph in the middle of the document (scrolled to the
 * middle of the viewport), types a few warm-up keys and lets the page settle again. Without
 * `settle`, at once: typing as soon as the document is there, while the page still works on it.
 */
export async function placeCaretInMiddle(
  page: Page,
  { settle = true }: { settle?: boolean } = {},
): Promise<Locator> {
  if (settle) await page.evaluate(() => window.benchProbe.settle(1000, 20_000));
  const index = await page.evaluate(() => window.benchProbe.middleParagraph());
  const paragraph = page.locator(TOP_LEVEL_PARAGRAPHS).nth(index);
  await paragraph.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await paragraph.click();
  await page.keyboard.type(WARMUP_TEXT, { delay: KEY_DELAY_MS });
  if (settle) await page.evaluate(() => window.benchProbe.settle(500, 10_000));
  return paragraph;
}

/**
 * Types `TEXT` into the paragraph holding the caret and returns what the probe recorded:
 * keydown to next paint per key, Event Timing maxima and long tasks. Checks the text landed.
 */
export async function typeMeasured(page: Page, paragraph: Locator): Promise<KeystrokeSamples> {
  await page.evaluate(() => window.benchProbe.startKeystrokes());
  await page.keyboard.type(TEXT, { delay: KEY_DELAY_MS });
  // The last keys' frames arrive a little later: on a busy page, much later.
  await page.waitForFunction(
    (keys) => window.benchProbe.recordedKeystrokes() >= keys,
    TEXT.length,
    { timeout: 60_000 },
  );
  // And the Event Timing entries after them.
  await page.waitForTimeout(500);
  const samples = await page.evaluate(() => window.benchProbe.keystrokes());
  const typed = (await paragraph.textContent()) ?? '';
  if (!typed.includes(WARMUP_TEXT + TEXT)) {
    throw new Error(`the typed text did not land in the paragraph: "${typed.slice(0, 200)}"`);
  }
  if (samples.latencies.length !== TEXT.length) {
    throw new Error(`recorded ${samples.latencies.length} keydowns for ${TEXT.length} keys`);
  }
  return samples;
}
