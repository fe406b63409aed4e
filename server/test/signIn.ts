import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { createTestBrowser, type TestBrowser } from './hostedProvider.ts';

/** Follows redirects in `browser` from `url` until one leads to the app's callback, which is returned unvisited. */
async function toCallback(browser: TestBrowser, server: { url: string }, url: URL): Promise<URL> {
  let next = url;
  for (let step = 0; step < 10; step += 1) {
    if (next.href.startsWith(`${server.url}/auth/callback`)) return next;
    const res = await browser.fetch(next);
    const location = res.headers.get('location');
    await res.body?.cancel();
    if (!location) throw new Error(`stopped at ${next.pathname} with ${res.status}`);
    next = new URL(location, next);
  }
  throw new Error('no callback after 10 redirects');
}

/**
 * Starts sign-in at the app and creates an account on the embedded provider's page; returns the
 * callback URL, not yet visited, so tests can tamper with it or visit it. `headers` go with the
 * form's POST (a proxy's `X-Forwarded-For`, say).
 */
export async function signUp(
  browser: TestBrowser,
  server: { url: string },
  returnTo = '/d/somewhere',
  headers: Record<string, string> = {},
): Promise<URL> {
  const login = await browser.fetch(
    `${server.url}/auth/login?returnTo=${encodeURIComponent(returnTo)}`,
  );
  expect(login.status).toBe(302);
  let url = new URL(login.headers.get('location')!);
  expect(url.href.startsWith(`${server.url}/idp/`)).toBe(true);
  const start = await browser.fetch(url);
  url = new URL(start.headers.get('location')!, url);
  expect(url.pathname).toMatch(/^\/idp\/interaction\//);
  const created = await browser.fetch(`${url.href}/signup`, {
    method: 'POST',
    headers,
    body: new URLSearchParams({
      name: 'Wren',
      email: `wren.${randomBytes(4).toString('hex')}@example.com`,
      password: 'a long enough password',
    }),
  });
  expect(created.status).toBe(303);
  return toCallback(browser, server, new URL(created.headers.get('location')!, url));
}

/** Signs up a new account through the app and the embedded provider; returns the browser, signed in. */
export async function signedInBrowser(server: { url: string }): Promise<TestBrowser> {
  const browser = createTestBrowser();
  const landed = await browser.fetch(await signUp(browser, server));
  expect(landed.status).toBe(302);
  return browser;
}
