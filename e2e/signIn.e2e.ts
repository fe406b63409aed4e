import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newAccount, signUp } from './auth.ts';
import { editorLocator } from './editorPage.ts';
import { appUrl, collectPageErrors, useBrowser, screenshot } from './harness.ts';

const browser = useBrowser();

test('creates an account, lands on the page asked for, signs out, signs in again and writes', async () => {
  const context = await browser().newContext();
  const page = await context.newPage();
  const errors = collectPageErrors(page);

  // A signed-out visit to an app route goes through sign-in and comes back to it.
  await page.goto(`${appUrl()}/settings`);
  assert.match(new URL(page.url()).pathname, /^\/idp\/interaction\//);
  assert.match(await page.title(), /Inkwell/);
  await screenshot(page, 'sign-in');
  const account = await signUp(page, newAccount('Ada Writer'));
  assert.equal(new URL(page.url()).pathname, '/settings');
  await page.getByText(account.email).waitFor();

  const [session] = (await context.cookies()).filter((cookie) => cookie.name === 'inkwell_session');
  assert.ok(session, 'a session cookie is set');
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Lax');

  // Sign out of the app and of the provider.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  assert.match(new URL(page.url()).pathname, /^\/idp\/session\/end/);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'You are signed out' }).waitFor();

  // The old cookie is worthless now.
  const replay = await browser().newContext();
  await replay.addCookies([session]);
  const me = await replay.request.get(`${appUrl()}/api/me`);
  assert.equal(me.status(), 401);
  await replay.close();

  // The provider's session ended too: signing in asks for the password again.
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('button', { name: 'New document' }).first().click();
  await editorLocator(page).waitFor({ state: 'visible' });
  await editorLocator(page).pressSequentially('Hello from a new account');
  await page.getByText('Saved', { exact: true }).waitFor({ timeout: 10_000 });
  await page.reload();
  await editorLocator(page).getByText('Hello from a new account').waitFor();
  await screenshot(page, 'signed-in');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a wrong password is refused with one message, and the form keeps the e-mail', async () => {
  const context = await browser().newContext();
  const page = await context.newPage();
  await page.goto(appUrl());
  const account = await signUp(page);
  await context.clearCookies();
  await page.goto(appUrl());
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(/e-mail or password/i).waitFor();
  assert.equal(await page.getByLabel('E-mail').inputValue(), account.email);
  assert.match(new URL(page.url()).pathname, /^\/idp\//);
  await context.close();
});
