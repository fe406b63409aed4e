import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newAccount, signUp } from './auth.ts';
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
import { HOSTS, signIn, useInstances } from './instances.ts';

/*
 * One person on two instances behind one public URL (e2e/instances.ts): live typing, trashing
 * and signing out reach the other instance at once, through Redis.
 */

const instances = useInstances('instance');
const { openOn } = instances;

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
    const cookie = await cookieHeader(context, instances.publicUrl());
    assert.equal(
      await restText(`http://${host}:${instances.port()}`, cookie, id),
      inA,
      `REST on ${host}`,
    );
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
  const context = await instances
    .browser(0)
    .newContext({ storageState: await b.context.storageState() });
  const a = await context.newPage();
  const response = await a.goto(`${instances.publicUrl()}/settings`);
  assert.equal((await response?.serverAddr())?.ipAddress, HOSTS[0], 'instance A answered');
  await a.getByRole('button', { name: 'Sign out' }).click();
  await a.waitForURL((url) => url.pathname.startsWith('/idp/session/end'), {
    waitUntil: 'commit',
  });

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
