import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { Database } from '../server/db/database.ts';
import { openDatabase } from '../server/db/database.ts';
import { ShareTokens } from '../server/sharing/tokens.ts';
import { startPostgresServer, type PostgresServer } from '../server/test/postgresServer.ts';
import { caretAtEnd, documentIdOf, saved } from './collabPage.ts';
import { openEditor } from './editorPage.ts';
import { collectPageErrors, startServer, useBrowser, type RunningServer } from './harness.ts';

/*
 * A published page (docs/PRODUCT.md "Sharing") read in a browser that never signed in: with
 * JavaScript and without, following what its writer types. The server runs on PostgreSQL so
 * that this test can publish as the publishing routes do, by writing the row.
 */

const browser = useBrowser();
let postgres: PostgresServer | null = null;
let server: RunningServer | undefined;
let db: Database | undefined;

/** How long a reader may wait for what was typed: the page asks every 3 s. */
const ARRIVES_MS = 10_000;

before(async () => {
  postgres = await startPostgresServer({ required: true });
  const url = postgres!.url;
  server = await startServer({
    env: { DATABASE_URL: url, IDP_SIGNUPS_PER_HOUR: '10000' },
    label: 'published',
  });
  db = await openDatabase({ kind: 'postgres', url });
});

after(async () => {
  await db?.close();
  await server?.stop().catch(() => server?.kill());
  await postgres?.stop();
});

async function publish(documentId: string): Promise<string> {
  const { nonce, token, hash } = (await ShareTokens.load(db!)).issue('page');
  await db!.query(
    'INSERT INTO published_pages (document_id, nonce, token_hash) VALUES ($1, $2, $3)',
    [documentId, nonce, hash],
  );
  return token;
}

/** A page in a fresh context: no cookie, no storage, nothing of the writer's. */
async function openAsReader(url: string, javaScriptEnabled = true) {
  const context = await browser().newContext({ javaScriptEnabled });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const res = await page.goto(url);
  assert.equal(res?.status(), 200);
  return { context, page, errors };
}

const article = (page: Page) => page.locator('article.page-content');

test('a published page reads without a session, with or without script, and follows edits', async () => {
  const writer = await openEditor(browser(), server!.url);
  await caretAtEnd(writer.page);
  await writer.page.keyboard.type('Herons at dawn.');
  await saved(writer.page);
  const id = documentIdOf(writer.page);
  const token = await publish(id);
  const url = `${server!.url}/p/${token}`;

  const reader = await openAsReader(url);
  await article(reader.page).getByText('Herons at dawn.').waitFor();
  assert.deepEqual(await reader.context.cookies(), []);

  const still = await openAsReader(url, false);
  await article(still.page).getByText('Herons at dawn.').waitFor();

  // Typed in the editor, on the open page within seconds, without a reload.
  await caretAtEnd(writer.page);
  await writer.page.keyboard.type(' A kingfisher too.');
  await saved(writer.page);
  await article(reader.page)
    .getByText('Herons at dawn. A kingfisher too.')
    .waitFor({ timeout: ARRIVES_MS });

  await db!.query('DELETE FROM published_pages WHERE document_id = $1', [id]);
  await reader.page
    .getByRole('status')
    .getByText('This page is no longer published.')
    .waitFor({ timeout: ARRIVES_MS });
  assert.equal(await article(reader.page).textContent(), '');

  // Nothing the page did broke its Content-Security-Policy or threw; the 404 of its content
  // once unpublished is how it learnt.
  const errors = [...reader.errors, ...still.errors].filter((error) => !error.includes('404'));
  assert.deepEqual(errors, []);
  await Promise.all([reader.context.close(), still.context.close(), writer.close()]);
});
