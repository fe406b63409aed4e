import { freePort } from '../test/freePort.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeResponse } from '../../common/api/session.ts';
import type { Database } from '../db/database.ts';
import type { RunningServer } from '../startServer.ts';
import { openTestDatabase } from '../test/databases.ts';
import {
  createTestBrowser,
  startHostedProvider,
  type HostedProvider,
} from '../test/hostedProvider.ts';
import { signUp } from '../test/signIn.ts';
import { describeWithServer, startTestServer } from '../test/testServer.ts';

/** `returnTo` values that a browser would read as another site, or as no web page at all. */
const HOSTILE_RETURN_TO = [
  '/\t/evil.example/x',
  '/\n/evil.example/x',
  '\r\n//evil.example/x',
  '  //evil.example/x',
  '//evil.example/x',
  '/\\evil.example',
  '\\\\evil.example',
  '/.//evil.example',
  'https://evil.example/',
  'javascript:alert(1)',
  'jav\tascript:alert(1)',
  `/${'a'.repeat(5000)}`,
];

const CSRF = (server: RunningServer) => ({ 'X-Inkwell-Request': '1', Origin: server.url });

async function sessionCount(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions');
  return rows[0]!.n;
}

describeWithServer('sign-in through the embedded provider', (context) => {
  it('creates an account, lands on the page asked for, and signs out of the app and the provider', async () => {
    const { server } = context();
    const browser = createTestBrowser();
    const callback = await signUp(browser, server, '/d/after-sign-in?tab=1');
    const landed = await browser.fetch(callback);
    expect(landed.status).toBe(302);
    expect(landed.headers.get('location')).toBe('/d/after-sign-in?tab=1');
    const cookie = landed.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/inkwell_session=[\w-]{43};/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);

    const me = await browser.fetch(`${server.url}/api/me`);
    expect(me.status).toBe(200);
    const body = (await me.json()) as MeResponse;
    expect(body.user.name).toBe('Wren');
    expect(body.provider).toEqual({ kind: 'embedded', issuer: `${server.url}/idp` });
    const page = await browser.fetch(`${server.url}/settings`, {
      headers: { Accept: 'text/html' },
    });
    expect(page.status).not.toBe(302);

    const logout = await browser.fetch(`${server.url}/api/session/logout`, {
      method: 'POST',
      headers: CSRF(server),
    });
    expect(logout.status).toBe(200);
    const { redirectTo } = (await logout.json()) as { redirectTo: string };
    const endSession = new URL(redirectTo);
    expect(endSession.href.startsWith(`${server.url}/idp/session/end`)).toBe(true);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(
      `${server.url}/auth/signed-out`,
    );
    expect(endSession.searchParams.get('id_token_hint')).toBeTruthy();
    expect((await browser.fetch(`${server.url}/api/me`)).status).toBe(401);
  });

  it('creates no session for a wrong state', async () => {
    const { server, db } = context();
    const browser = createTestBrowser();
    const callback = await signUp(browser, server);
    const before = await sessionCount(db);
    callback.searchParams.set('state', 'not-the-state');
    const res = await browser.fetch(callback);
    expect(res.status).toBe(400);
    expect(res.headers.get('set-cookie') ?? '').not.toMatch(/inkwell_session=[\w-]/);
    expect(await sessionCount(db)).toBe(before);
  });

  it('creates no session for a callback that reaches another browser', async () => {
    const { server, db } = context();
    const callback = await signUp(createTestBrowser(), server);
    const before = await sessionCount(db);
    const res = await createTestBrowser().fetch(callback);
    expect(res.status).toBe(400);
    expect(await sessionCount(db)).toBe(before);
  });

  it('creates no session for a wrong nonce', async () => {
    const { server, db } = context();
    const browser = createTestBrowser();
    const callback = await signUp(browser, server);
    await db.query(`UPDATE login_flows SET nonce = 'someone-elses-nonce'`);
    const before = await sessionCount(db);
    const res = await browser.fetch(callback);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('could not be verified');
    expect(await sessionCount(db)).toBe(before);
  });

  it('creates no session for a replayed code, with the old state or a new one', async () => {
    const { server, db } = context();
    const browser = createTestBrowser();
    const callback = await signUp(browser, server);
    expect((await browser.fetch(callback)).status).toBe(302);
    const after = await sessionCount(db);

    const replay = await browser.fetch(callback);
    expect(replay.status).toBe(400);

    // A new sign-in, answered with the old code under the new state.
    const fresh = createTestBrowser();
    const again = await fresh.fetch(`${server.url}/auth/login`);
    const state = new URL(again.headers.get('location')!).searchParams.get('state')!;
    const forged = new URL(callback);
    forged.searchParams.set('state', state);
    const res = await fresh.fetch(forged);
    expect(res.status).toBe(400);
    expect(await sessionCount(db)).toBe(after);
  });

  it('sends a visitor who is already signed in straight back', async () => {
    const { server } = context();
    const browser = createTestBrowser();
    await browser.fetch(await signUp(browser, server));
    const res = await browser.fetch(`${server.url}/auth/login?returnTo=/trash`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/trash');
  });

  it('never sends a signed-in visitor to another site, however returnTo is disguised', async () => {
    const { server } = context();
    const browser = createTestBrowser();
    await browser.fetch(await signUp(browser, server));
    for (const returnTo of HOSTILE_RETURN_TO) {
      const res = await browser.fetch(
        `${server.url}/auth/login?returnTo=${encodeURIComponent(returnTo)}`,
      );
      expect(res.status, returnTo).toBe(302);
      expect(res.headers.get('location'), JSON.stringify(returnTo)).toBe('/');
    }
    // Encoded by hand: %09 is a tab once the query is decoded, and browsers then drop it.
    const raw = await browser.fetch(`${server.url}/auth/login?returnTo=%2F%09%2Fevil.example%2Fx`);
    expect(raw.headers.get('location')).toBe('/');
  });

  it('never returns to another site after sign-in', async () => {
    const { server } = context();
    for (const returnTo of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/\t/evil.example/x',
      '/.//evil.example',
    ]) {
      const browser = createTestBrowser();
      const callback = await signUp(browser, server, returnTo);
      const res = await browser.fetch(callback);
      expect(res.headers.get('location'), returnTo).toBe('/');
    }
  });

  it('checks returnTo again after the callback, whatever the stored sign-in holds', async () => {
    const { server, db } = context();
    const browser = createTestBrowser();
    const callback = await signUp(browser, server);
    await db.query(`UPDATE login_flows SET return_to = $1`, ['/\n/evil.example/x']);
    const res = await browser.fetch(callback);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
  });

  it('answers a callback with a provider error, or with nothing, with a page to start again', async () => {
    const { server } = context();
    for (const query of ['?error=access_denied&state=x', '', `?code=${'x'.repeat(5000)}&state=y`]) {
      const res = await createTestBrowser().fetch(`${server.url}/auth/callback${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.text()).toContain('href="/auth/login"');
    }
  });
});

describe('sign-up behind a proxy (TRUST_PROXY=1)', () => {
  let db: Database;
  let server: RunningServer;

  beforeAll(async () => {
    db = await openTestDatabase('pglite');
    server = await startTestServer(db, {
      trustProxy: { kind: 'hops', hops: 1 },
      idpSignupsPerHour: 1,
    });
  });
  afterAll(async () => {
    await server.close();
    await db.close();
  });

  it('throttles each client by its forwarded address, not the proxy they share', async () => {
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    await signUp(createTestBrowser(), server, '/', from('203.0.113.20'));
    await signUp(createTestBrowser(), server, '/', from('203.0.113.21'));
    await expect(signUp(createTestBrowser(), server, '/', from('203.0.113.20'))).rejects.toThrow(
      /expected 429 to be 303/,
    );
  });
});

describe('sign-in through a hosted provider', () => {
  let db: Database;
  let provider: HostedProvider;
  let server: RunningServer;

  beforeAll(async () => {
    const port = await freePort();
    const appUrl = `http://localhost:${port}`;
    provider = await startHostedProvider({
      tokenAuthMethod: 'client_secret_post',
      redirectUri: `${appUrl}/auth/callback`,
      postLogoutRedirectUri: `${appUrl}/auth/signed-out`,
    });
    db = await openTestDatabase('pglite');
    server = await startTestServer(db, {
      port,
      oidc: {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        tokenAuthMethod: undefined,
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await provider.close();
    await db.close();
  });

  it('signs in with an issuer that has a path, ES256 ID tokens and client_secret_post', async () => {
    const browser = createTestBrowser();
    const login = await browser.fetch(`${server.url}/auth/login?returnTo=/settings`);
    const authorization = new URL(login.headers.get('location')!);
    expect(authorization.href.startsWith(`${provider.issuer}/`)).toBe(true);
    const callback = await provider.login(authorization, { browser });
    const res = await browser.fetch(callback);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/settings');
    const me = (await (await browser.fetch(`${server.url}/api/me`)).json()) as MeResponse;
    expect(me.user.email).toBe(provider.account.email);
    expect(me.provider).toEqual({ kind: 'hosted', issuer: provider.issuer });
    const { rows } = await db.query<{ issuer: string; subject: string }>(
      'SELECT issuer, subject FROM users',
    );
    expect(rows).toContainEqual({ issuer: provider.issuer, subject: provider.account.sub });
  });

  it('does not serve the embedded provider when a hosted one is configured', async () => {
    const res = await fetch(`${server.url}/idp/.well-known/openid-configuration`);
    expect(res.status).toBe(404);
  });
});
