import type { BrowserContext, Page } from 'playwright-core';
import type { DocumentRecord } from '../common/api/documents.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../common/api/errors.ts';
import { editorLocator } from './editorPage.ts';
import { appUrl } from './harness.ts';

/** The headers the app's own requests carry, which the API asks of anything that changes state. */
export const apiHeaders = () => ({
  [CSRF_HEADER]: CSRF_HEADER_VALUE,
  Origin: new URL(appUrl()).origin,
});

/*
 * What the live-collaboration browser tests read from a page: the document's text without the
 * other writers' caret labels, waits for a text or for a set of characters, and the status bar.
 */

/** How long a page may take to show what another writer typed (or to say Saved). */
export const LIVE_TIMEOUT_MS = 20_000;

/** Waits until the status bar says Saved: every update acknowledged, hence stored. */
export const saved = (page: Page, timeout = LIVE_TIMEOUT_MS) =>
  page.getByRole('status').getByText('Saved', { exact: true }).waitFor({ timeout });

/** The page's document text, without the caret labels of other writers. */
export const textOf = (page: Page) =>
  page.evaluate(() => {
    const copy = document.querySelector('.ProseMirror')?.cloneNode(true) as HTMLElement | undefined;
    copy?.querySelectorAll('.collaboration-carets__caret').forEach((caret) => caret.remove());
    return copy?.textContent ?? '';
  });

/** Waits until the page's document text is exactly `text`. */
export async function waitForText(page: Page, text: string, timeout = LIVE_TIMEOUT_MS) {
  await page
    .waitForFunction(
      (expected) => {
        const copy = document.querySelector('.ProseMirror')?.cloneNode(true) as
          HTMLElement | undefined;
        copy?.querySelectorAll('.collaboration-carets__caret').forEach((caret) => caret.remove());
        return copy?.textContent === expected;
      },
      text,
      { timeout },
    )
    .catch(async (error: unknown) => {
      throw new Error(
        `expected ${JSON.stringify(text)}, the page shows ${JSON.stringify(await textOf(page))}`,
        { cause: error },
      );
    });
}

/** The texts of the page's top-level blocks, without the caret labels of other writers. */
export const blockTextsOf = (page: Page) =>
  page.evaluate(() => {
    const copy = document.querySelector('.ProseMirror')?.cloneNode(true) as HTMLElement | undefined;
    copy?.querySelectorAll('.collaboration-carets__caret').forEach((caret) => caret.remove());
    return [...(copy?.querySelectorAll(':scope > .ink-chunk > *') ?? [])].map(
      (block) => block.textContent,
    );
  });

/**
 * Waits until the page's top-level blocks hold exactly one of `choices` (each a list of block
 * texts) and returns the blocks: writers typing at one spot at once each keep their text whole,
 * in an order that depends on who was first.
 */
export async function waitForBlocks(
  page: Page,
  choices: readonly (readonly string[])[],
  timeout = LIVE_TIMEOUT_MS,
) {
  await page
    .waitForFunction(
      (expected) => {
        const copy = document.querySelector('.ProseMirror')?.cloneNode(true) as
          HTMLElement | undefined;
        copy?.querySelectorAll('.collaboration-carets__caret').forEach((caret) => caret.remove());
        const blocks = JSON.stringify(
          [...(copy?.querySelectorAll(':scope > .ink-chunk > *') ?? [])].map(
            (block) => block.textContent,
          ),
        );
        return expected.includes(blocks);
      },
      choices.map((choice) => JSON.stringify(choice)),
      { timeout },
    )
    .catch(async (error: unknown) => {
      throw new Error(
        `expected one of ${JSON.stringify(choices)}, the page shows ${JSON.stringify(await blockTextsOf(page))}`,
        { cause: error },
      );
    });
  return blockTextsOf(page);
}

/** The characters of `text` other than white space, sorted: what concurrent typing must keep. */
export const characters = (text: string) => [...text.replace(/\s/g, '')].sort().join('');

/**
 * Waits until the page's document holds exactly the characters of `text` (white space aside, in
 * any order: what writers typed at one spot comes in an order that depends on who was first)
 * and returns its text.
 */
export async function waitForCharacters(page: Page, text: string, timeout = LIVE_TIMEOUT_MS) {
  await page
    .waitForFunction(
      (expected) => {
        const copy = document.querySelector('.ProseMirror')?.cloneNode(true) as
          HTMLElement | undefined;
        copy?.querySelectorAll('.collaboration-carets__caret').forEach((caret) => caret.remove());
        const shown = copy?.textContent ?? '';
        return [...shown.replace(/\s/g, '')].sort().join('') === expected;
      },
      characters(text),
      { timeout },
    )
    .catch(async (error: unknown) => {
      throw new Error(
        `expected the characters of ${JSON.stringify(text)}, the page shows ${JSON.stringify(await textOf(page))}`,
        { cause: error },
      );
    });
  return textOf(page);
}

/** Puts the caret at the end of the document. */
export async function caretAtEnd(page: Page) {
  await editorLocator(page).click();
  await page.keyboard.press('Control+End');
}

/** The id of the document open in `page` (its URL is `/d/<id>`). */
export function documentIdOf(page: Page): string {
  const id = new URL(page.url()).pathname.split('/').pop();
  if (!id) throw new Error(`no document open at ${page.url()}`);
  return id;
}

export interface JsonNode {
  text?: string;
  content?: JsonNode[];
}

/** The text of a node of document JSON, its blocks joined as the editor's textContent joins them. */
export const plainText = (node: JsonNode): string =>
  node.text ?? (node.content ?? []).map(plainText).join('');

/**
 * The text of document `id` as `GET /api/documents/:id` on `baseUrl` gives it to the holder of
 * `cookie` (the REST copy, derived from the live state before the read).
 */
export async function restText(baseUrl: string, cookie: string, id: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/documents/${id}`, { headers: { Cookie: cookie } });
  if (!res.ok) throw new Error(`GET /api/documents/${id} on ${baseUrl}: ${res.status}`);
  const { document } = (await res.json()) as { document: DocumentRecord };
  return plainText(document.content as JsonNode);
}

/** The `Cookie` header `context` sends to `url`, for requests made outside the browser. */
export async function cookieHeader(context: BrowserContext, url: string): Promise<string> {
  const cookies = await context.cookies(url);
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
}

/**
 * A writer who goes on typing ` w1 w2 …`, a word at a time, until `stop()` (called once the
 * event under test has happened) and `wordsAfter` words more: the event lands while keys are
 * still arriving, however slow the machine, where a fixed sentence could end first.
 */
export function keepTyping(page: Page, { delay = 30, wordsAfter = 3, maxWords = 400 } = {}) {
  const words: string[] = [];
  let wordsAtStop = -1;
  const done = (async () => {
    while (wordsAtStop < 0 || words.length < wordsAtStop + wordsAfter) {
      if (words.length >= maxWords)
        throw new Error(`typed ${maxWords} words and was never stopped`);
      const word = ` w${words.length + 1}`;
      await page.keyboard.type(word, { delay });
      words.push(word);
    }
    return words.join('');
  })();
  return {
    /** The event has happened: type `wordsAfter` words more, then `done` gives all that was typed. */
    stop: () => {
      if (wordsAtStop < 0) wordsAtStop = words.length;
    },
    done,
  };
}
