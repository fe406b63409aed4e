import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate.ts';
import { openPglite, type PgliteDatabase } from '../../db/pglite.ts';
import { createLogger } from '../../logger.ts';
import { createTestBrowser, type TestBrowser } from '../../test/hostedProvider.ts';
import { createAccount } from './accounts.ts';
import type { TrustProxy } from '../../config.ts';
import { createEmbeddedIdp, type EmbeddedIdp } from './embeddedIdp.ts';
import { loginByEmail } from './throttle.ts';

let db: PgliteDatabase;
let server: Server;
let publicUrl: string;
let idp: EmbeddedIdp;
const account = { email: 'Known@Example.com', name: 'Known', password: 'known password 1' };

beforeAll(async () => {
  db = await openPglite(undefined);
  await migrate(db);
  server = createServer((req, res) => idp.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  publicUrl = `http://localhost:${(server.address() as AddressInfo).port}`;
  idp = await createEmbeddedIdp({ db, publicUrl, logger: createLogger('silent') });
  await createAccount(db, account);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await db.close();
});

/** Starts an authorization request in `browser` and returns its sign-in page URL. */
async function startInteraction(
  browser: TestBrowser,
  target: { idp: EmbeddedIdp; publicUrl: string } = { idp, publicUrl },
): Promise<string> {
  const url = new URL(`${target.idp.issuer}/auth`);
  url.search = new URLSearchParams({
    client_id: target.idp.clientId,
    response_type: 'code',
    redirect_uri: `${target.publicUrl}/auth/callback`,
    scope: 'openid email profile',
    state: 'state',
    nonce: 'nonce',
    code_challenge: createHash('sha256').update('verifier'.repeat(6)).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const response = await browser.fetch(url);
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location')!, target.publicUrl).href;
}

function post(browser: TestBrowser, url: string, fields: Record<string, string>) {
  return browser.fetch(url, { method: 'POST', body: new URLSearchParams(fields) });
}

function expectPageHeaders(response: Response) {
  expect(response.headers.get('content-security-policy')).toBe(
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('cache-control')).toBe('no-store');
}

describe('the sign-in and create-account pages', () => {
  it('are accessible forms with autocomplete hints, security headers and no script', async () => {
    const browser = createTestBrowser();
    const page = await startInteraction(browser);
    const signIn = await browser.fetch(page);
    expectPageHeaders(signIn);
    const signInHtml = await signIn.text();
    expect(signInHtml).toContain('<label for="email">');
    expect(signInHtml).toContain('autocomplete="email"');
    expect(signInHtml).toContain('autocomplete="current-password"');
    expect(signInHtml).not.toMatch(/<script|\son\w+=/i);
    const signUpHtml = await (await browser.fetch(`${page}?mode=signup`)).text();
    expect(signUpHtml).toContain('autocomplete="name"');
    expect(signUpHtml).toContain('autocomplete="new-password"');
    expect(signUpHtml).not.toMatch(/<script|\son\w+=/i);
  });

  it('escapes markup typed into a field when the form comes back with errors', async () => {
    const browser = createTestBrowser();
    const page = await startInteraction(browser);
    const response = await post(browser, `${page}/signup`, {
      name: '<script>alert(1)</script>',
      email: '"><img src=x onerror=alert(1)>@example.com',
      password: 'short',
    });
    expect(response.status).toBe(400);
    expectPageHeaders(response);
    const html = await response.text();
    expect(html).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('Enter a valid e-mail address.');
    expect(html).toContain('Use at least 8 characters.');
  });

  it('rejects a 10,000-character e-mail cleanly on both forms', async () => {
    const browser = createTestBrowser();
    const page = await startInteraction(browser);
    const email = `${'a'.repeat(10_000)}@example.com`;
    const signUp = await post(browser, `${page}/signup`, {
      name: 'N',
      email,
      password: 'long enough',
    });
    expect(signUp.status).toBe(400);
    expect(await signUp.text()).toContain('Enter a valid e-mail address.');
    const signIn = await post(browser, `${page}/login`, { email, password: 'whatever' });
    expect(signIn.status).toBe(400);
    expect(await signIn.text()).toContain('Enter a valid e-mail address.');
  });

  it('refuses a form body over 16 KB with 413, declared or streamed', async () => {
    const browser = createTestBrowser();
    const page = await startInteraction(browser);
    const big = await post(browser, `${page}/login`, {
      email: 'a@b.co',
      password: 'x'.repeat(20_000),
    });
    expect(big.status).toBe(413);
    expectPageHeaders(big);
    const chunks = [new TextEncoder().encode(`password=${'y'.repeat(20_000)}`)];
    const streamed = await browser.fetch(`${page}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new ReadableStream({
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk) controller.enqueue(chunk);
          else controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('refuses a body that is not a form', async () => {
    const browser = createTestBrowser();
    const page = await startInteraction(browser);
    const response = await browser.fetch(`${page}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    expect(response.status).toBe(415);
  });

  it('shows a friendly page with a way home for an unknown or foreign interaction', async () => {
    const unknown = await fetch(`${idp.issuer}/interaction/doesnotexist`);
    expect(unknown.status).toBe(400);
    expectPageHeaders(unknown);
    const html = await unknown.text();
    expect(html).toContain('Sign-in expired');
    expect(html).toContain(`href="${publicUrl}/"`);
    // A valid interaction cookie does not open another interaction's page.
    const browser = createTestBrowser();
    await startInteraction(browser);
    const other = await post(browser, `${idp.issuer}/interaction/someone-elses`, {});
    expect(other.status).toBe(405);
    const foreign = await post(browser, `${idp.issuer}/interaction/someone-elses/login`, account);
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain('Sign-in expired');
  });

  it('tells a person whose e-mail is taken, in any case, to sign in instead', async () => {
    const browser = createTestBrowser();
    const page = await startInteraction(browser);
    const response = await post(browser, `${page}/signup`, {
      ...account,
      email: account.email.toUpperCase(),
    });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain(
      'An account with this e-mail already exists. Sign in instead.',
    );
  });

  it('gives one message for an unknown e-mail and a wrong password', async () => {
    const browser = createTestBrowser();
    const page = await startInteraction(browser);
    const wrong = await post(browser, `${page}/login`, {
      email: account.email,
      password: 'nope-nope',
    });
    const unknown = await post(browser, `${page}/login`, {
      email: 'nobody@example.com',
      password: 'nope-nope',
    });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    const message = 'The e-mail or password is not correct.';
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain(message);
    expect(wrongHtml).toContain(`value="${account.email}"`);
    expect(await unknown.text()).toContain(message);
  });

  it('signs in with the right password, case-insensitively, without counting it as a failure', async () => {
    const email = `Ok.${randomBytes(3).toString('hex')}@Example.com`;
    await createAccount(db, { email, name: 'Ok', password: 'right password' });
    const browser = createTestBrowser();
    const page = await startInteraction(browser);
    const response = await post(browser, `${page}/login`, {
      email: email.toLowerCase(),
      password: 'right password',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(new RegExp(`^${idp.issuer}/auth/`));
    const { rows } = await db.query('SELECT 1 FROM rate_limits WHERE key = $1', [
      loginByEmail(email).key,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('blocks the eleventh attempt after ten failures, even with the right password', async () => {
    const email = `Target.${randomBytes(3).toString('hex')}@Example.com`;
    await createAccount(db, { email, name: 'Target', password: 'right password' });
    const browser = createTestBrowser();
    const page = await startInteraction(browser);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const failed = await post(browser, `${page}/login`, { email, password: `guess ${attempt}` });
      expect(failed.status).toBe(400);
    }
    const blocked = await post(browser, `${page}/login`, { email, password: 'right password' });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await blocked.text()).toContain('Too many sign-in attempts. Try again in 15 minutes.');
    // Other people signing in from the same address are not locked out by one target.
    const other = await post(browser, `${page}/login`, account);
    expect(other.status).toBe(303);
  });
});

describe('the sign-up throttle behind a proxy', () => {
  let ownDb: PgliteDatabase;
  const servers: Server[] = [];

  beforeAll(async () => {
    ownDb = await openPglite(undefined);
    await migrate(ownDb);
  });

  afterAll(async () => {
    for (const each of servers) {
      each.closeAllConnections();
      await new Promise((resolve) => each.close(resolve));
    }
    await ownDb.close();
  });

  // Each test starts with no counts, whichever address the one before it counted.
  beforeEach(async () => {
    await ownDb.query('DELETE FROM rate_limits');
  });

  /** A provider allowing one account per address per hour, trusting `trustProxy`. */
  async function startIdp(trustProxy: TrustProxy) {
    // The provider needs the port, so the server starts first and is handed the provider after.
    let handle: EmbeddedIdp['handle'] = (_req, res) => res.writeHead(503).end();
    const own = createServer((req, res) => handle(req, res));
    servers.push(own);
    await new Promise<void>((resolve) => own.listen(0, 'localhost', resolve));
    const url = `http://localhost:${(own.address() as AddressInfo).port}`;
    const ownIdp = await createEmbeddedIdp({
      db: ownDb,
      publicUrl: url,
      logger: createLogger('silent'),
      signupsPerHour: 1,
      trustProxy,
    });
    handle = (req, res) => ownIdp.handle(req, res);
    return { idp: ownIdp, publicUrl: url };
  }

  /** Creates an account on `target` with `X-Forwarded-For: forwardedFor`; returns the status. */
  async function signUpFrom(
    target: { idp: EmbeddedIdp; publicUrl: string },
    forwardedFor: string,
  ): Promise<number> {
    const browser = createTestBrowser();
    const page = await startInteraction(browser, target);
    const response = await browser.fetch(`${page}/signup`, {
      method: 'POST',
      headers: { 'X-Forwarded-For': forwardedFor },
      body: new URLSearchParams({
        name: 'Proxied',
        email: `proxied.${randomBytes(4).toString('hex')}@example.com`,
        password: 'a long enough password',
      }),
    });
    await response.body?.cancel();
    return response.status;
  }

  it('counts each client by the address its one trusted proxy appended', async () => {
    const target = await startIdp({ kind: 'hops', hops: 1 });
    expect(await signUpFrom(target, '203.0.113.10')).toBe(303);
    // The same person, who also sent a made-up address of their own before the proxy's.
    expect(await signUpFrom(target, '198.51.100.99, 203.0.113.10')).toBe(429);
    // Someone else behind the same proxy is not held back by the first.
    expect(await signUpFrom(target, '203.0.113.11')).toBe(303);
  });

  it('ignores a spoofed X-Forwarded-For without TRUST_PROXY', async () => {
    const target = await startIdp({ kind: 'none' });
    expect(await signUpFrom(target, '192.0.2.1')).toBe(303);
    expect(await signUpFrom(target, '192.0.2.2')).toBe(429);
  });

  it('does not fail on a garbled X-Forwarded-For from a trusted proxy', async () => {
    const target = await startIdp({ kind: 'hops', hops: 1 });
    for (const header of ['', ',,,', 'not an address', '[::1', 'x'.repeat(8000)]) {
      expect([303, 429]).toContain(await signUpFrom(target, header));
    }
  });
});
