import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort } from '../server/test/freePort.ts';
import { startPostgresServer, type PostgresServer } from '../server/test/postgresServer.ts';
import { startRedis, type RedisServer } from '../server/test/redisServer.ts';
import { newAccount, signUp, type TestAccount } from './auth.ts';
import {
  caretAtEnd,
  cookieHeader,
  documentIdOf,
  restText,
  saved,
  waitForBlocks,
  waitForText,
} from './collabPage.ts';
import { editorLocator, runMenuItem } from './editorPage.ts';
import { launchBrowser, startServer, type RunningServer } from './harness.ts';

/*
 * Two Inkwell instances behind one public URL, as behind a load balancer that keeps each browser
 * on one instance (docs/ARCHITECTURE.md "Live collaboration", "Several instances"): one
 * PostgreSQL, one Redis, the same PUBLIC_URL (so one issuer, one person, one Origin). They listen
 * on the same port of two loopback addresses; each browser is a Chromium of its own whose
 * `localhost` resolves to its instance. The servers' own back-channel to the sign-in provider at
 * PUBLIC_URL reaches the first instance, which shares the provider's state through the database.
 */

/** The instances' addresses, in the order they start. */
const HOSTS = ['127.0.0.1', '127.0.0.2'] as const;

let postgres: PostgresServer | null = null;
let redis: RedisServer | undefined;
const servers: RunningServer[] = [];
const browsers: Browser[] = [];
let publicUrl = '';
let port = 0;

before(async () => {
  postgres = await startPostgresServer({ required: true });
  redis = await startRedis();
  port = await freePort();
  publicUrl = `http://localhost:${port}`;
  // One after the other: the first migrates the database, the second finds it done.
  for (const [index, host] of HOSTS.entries()) {
    servers.push(
      await startServer({
        env: {
          HOST: host,
          PORT: String(port),
          PUBLIC_URL: publicUrl,
          DATABASE_URL: postgres!.url,
          REDIS_URL: redis.url,
          IDP_SIGNUPS_PER_HOUR: '10000',
        },
        directUrl: `http://${host}:${port}`,
        label: `instance ${'AB'[index]}`,
      }),
    );
    browsers.push(await launchBrowser({ args: [`--host-resolver-rules=MAP localhost ${host}`] }));
  }
});

after(async () => {
  // Everything is stopped whatever failed, the database last.
  const results = await Promise.allSettled([
    ...browsers.map((browser) => browser.close()),
    ...servers.map((server) => server.stop().catch(() => server.kill())),
  ]);
  await redis?.stop();
  await postgres?.stop();
  for (const result of results) if (result.status === 'rejected') throw result.reason;
});

/** Opens `path` of the public URL in a new context of `browser`; checks which instance answered. */
async function openOn(
  index: number,
  path: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browsers[index]!.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const response = await page.goto(`${publicUrl}${path}`);
  assert.equal((await response?.serverAddr())?.ipAddress, HOSTS[index], 'the instance answered');
  return { context, page };
}

/** Signs in on the embedded provider's page (where a signed-out visit lands) and waits to return. */
async function signIn(page: Page, account: TestAccount): Promise<void> {
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/idp/'));
}

test('one person in two browsers on two instances types into one paragraph at once, each text kept whole; trashing it closes the other', async () => {
  const a = await openOn(0, '/');
  const account = await signUp(a.page, newAccount('Two Desks'));
  await a.page.getByRole('button', { name: 'New document' }).first().click();
  await a.page.waitForURL((url) => url.pathname.startsWith('/d/'));
  await editorLocator(a.page).waitFor();
  await caretAtEnd(a.page);
  await a.page.keyboard.type('Shared line:');
  await saved(a.page);
  const id = documentIdOf(a.page);

  const b = await openOn(1, `/d/${id}`);
  await signIn(b.page, account);
  assert.equal(new URL(b.page.url()).pathname, `/d/${id}`);
  await editorLocator(b.page).waitFor();
  await waitForText(b.page, 'Shared line:');

  await caretAtEnd(a.page);
  await caretAtEnd(b.page);
  const fromA = ' alpha bravo charlie delta echo';
  const fromB = ' one two three four five';
  // A delay per key keeps both typing over the same stretch of time, updates crossing.
  await Promise.all([
    a.page.keyboard.type(fromA, { delay: 20 }),
    b.page.keyboard.type(fromB, { delay: 20 }),
  ]);
  // Each caret stays with its own text: the two sentences end whole, side by side.
  const either = [[`Shared line:${fromA}${fromB}`], [`Shared line:${fromB}${fromA}`]];
  const [blocksA, blocksB] = await Promise.all([
    waitForBlocks(a.page, either),
    waitForBlocks(b.page, either),
  ]);
  assert.deepEqual(blocksA, blocksB, 'both browsers show the same text');
  const inA = blocksA.join('');
  await Promise.all([saved(a.page), saved(b.page)]);

  // Each instance's REST copy, read directly from it, holds what the browsers show.
  for (const [index, host] of HOSTS.entries()) {
    const context = index === 0 ? a.context : b.context;
    const cookie = await cookieHeader(context, publicUrl);
    assert.equal(await restText(`http://${host}:${port}`, cookie, id), inA, `REST on ${host}`);
  }

  // Trashing on instance A withdraws the document from the browser on instance B at once
  // (through Redis: sooner than the 30 s check of every socket would).
  await runMenuItem(a.page, 'Move to trash');
  await b.page
    .getByRole('status')
    .getByText("Couldn't save: this document is no longer open to you.")
    .waitFor({ timeout: 10_000 });
  await Promise.all([a.context.close(), b.context.close()]);
});

test('signing out on one instance closes the same session’s live document on the other at once', async () => {
  const b = await openOn(1, '/');
  await signUp(b.page, newAccount('One Session'));
  await b.page.getByRole('button', { name: 'New document' }).first().click();
  await b.page.waitForURL((url) => url.pathname.startsWith('/d/'));
  await editorLocator(b.page).waitFor();
  await caretAtEnd(b.page);
  await b.page.keyboard.type('Open on instance B.');
  await saved(b.page);
  // Its socket, watched from its opening: the page opens the document again.
  const socketClosed = new Promise<void>((resolve) => {
    b.page.on('websocket', (socket) => {
      if (new URL(socket.url()).pathname === '/api/collab') socket.on('close', () => resolve());
    });
  });
  await b.page.reload();
  await waitForText(b.page, 'Open on instance B.');
  await saved(b.page);

  // The same session (its cookie) in the browser on instance A signs out there.
  const context = await browsers[0]!.newContext({ storageState: await b.context.storageState() });
  const a = await context.newPage();
  const response = await a.goto(`${publicUrl}/settings`);
  assert.equal((await response?.serverAddr())?.ipAddress, HOSTS[0], 'instance A answered');
  await a.getByRole('button', { name: 'Sign out' }).click();
  await a.waitForURL((url) => url.pathname.startsWith('/idp/session/end'));

  // Sooner than the 30 s check of every socket: the sign-out was published through Redis.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    socketClosed,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the socket on B stayed open')), 10_000);
    }),
  ]).finally(() => clearTimeout(timer));
  // The page on B stops reconnecting and asks to sign in again (collaboration.e2e.ts has the rest).
  await b.page.locator('.ink-toast').filter({ hasText: 'You were signed out' }).waitFor();
  await Promise.all([context.close(), b.context.close()]);
});
