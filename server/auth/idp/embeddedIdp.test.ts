import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate.ts';
import { openPglite, type PgliteDatabase } from '../../db/pglite.ts';
import { createLogger } from '../../logger.ts';
import { createTestBrowser, type TestBrowser } from '../../test/hostedProvider.ts';
import { createEmbeddedIdp, type EmbeddedIdp } from './embeddedIdp.ts';

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  end_session_endpoint: string;
  token_endpoint_auth_methods_supported: string[];
  id_token_signing_alg_values_supported: string[];
  code_challenge_methods_supported: string[];
}

let db: PgliteDatabase;
let server: Server;
let publicUrl: string;
let idp: EmbeddedIdp;
let discovery: Discovery;
const logLines: string[] = [];
const logger = createLogger('debug', { write: (line: string) => logLines.push(line) });

beforeAll(async () => {
  db = await openPglite(undefined);
  await migrate(db);
  server = createServer((req, res) => {
    if (req.url?.startsWith('/idp')) idp.handle(req, res);
    else res.writeHead(200, { 'Content-Type': 'text/plain' }).end('the app');
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  publicUrl = `http://localhost:${(server.address() as AddressInfo).port}`;
  idp = await createEmbeddedIdp({ db, publicUrl, logger });
  discovery = (await (
    await fetch(`${idp.issuer}/.well-known/openid-configuration`)
  ).json()) as Discovery;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await db.close();
});

/** An authorization request as the app's relying party builds it. */
function authorizationRequest() {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const nonce = randomBytes(16).toString('base64url');
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: idp.clientId,
    response_type: 'code',
    redirect_uri: `${publicUrl}/auth/callback`,
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  return { url, verifier, state, nonce };
}

/** Follows redirects in `browser` until one leaves the provider; returns where it goes. */
async function followOut(browser: TestBrowser, from: string | URL): Promise<URL> {
  let url = new URL(from, publicUrl);
  for (let step = 0; step < 10 && url.href.startsWith(`${idp.issuer}/`); step += 1) {
    const response = await browser.fetch(url);
    expect(response.status, `GET ${url.pathname}`).toBeGreaterThanOrEqual(300);
    expect(response.status).toBeLessThan(400);
    url = new URL(response.headers.get('location')!, url);
  }
  return url;
}

function exchange(code: string, verifier: string, secret = idp.clientSecret) {
  const credentials = Buffer.from(
    `${encodeURIComponent(idp.clientId)}:${encodeURIComponent(secret)}`,
  ).toString('base64');
  return fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { Authorization: `Basic ${credentials}` },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${publicUrl}/auth/callback`,
      code_verifier: verifier,
    }),
  });
}

/** Checks the RS256 signature against the provider's published keys and returns the claims. */
async function verifiedClaims(idToken: string): Promise<Record<string, unknown>> {
  const [header, payload, signature] = idToken.split('.') as [string, string, string];
  const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<
    string,
    string
  >;
  expect(alg).toBe('RS256');
  const { keys } = (await (await fetch(discovery.jwks_uri)).json()) as { keys: { kid: string }[] };
  for (const key of keys) expect(key).not.toHaveProperty('d');
  const jwk = keys.find((key) => key.kid === kid);
  expect(jwk).toBeDefined();
  const publicKey = createPublicKey({ key: { ...jwk }, format: 'jwk' });
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    publicKey,
    Buffer.from(signature, 'base64url'),
  );
  expect(valid).toBe(true);
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
}

describe('the embedded provider', () => {
  it('publishes discovery for its issuer under /idp with only what the app uses', () => {
    expect(discovery.issuer).toBe(`${publicUrl}/idp`);
    expect(discovery.authorization_endpoint).toBe(`${publicUrl}/idp/auth`);
    expect(discovery.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic']);
    expect(discovery.id_token_signing_alg_values_supported).toEqual(['RS256']);
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
    expect(discovery.end_session_endpoint).toBe(`${publicUrl}/idp/session/end`);
  });

  it('refuses an authorization request without PKCE', async () => {
    const { url } = authorizationRequest();
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const target = await followOut(createTestBrowser(), url);
    expect(target.pathname).toBe('/auth/callback');
    expect(target.searchParams.get('error')).toBe('invalid_request');
  });

  describe('a whole sign-up, token, restart and sign-out round', () => {
    const browser = createTestBrowser();
    const email = `Writer.${randomBytes(4).toString('hex')}@Example.com`;
    let idToken = '';

    it('signs up on its own page and returns a code that exchanges for a verified ID token', async () => {
      const request = authorizationRequest();
      const start = await browser.fetch(request.url);
      expect(start.status).toBe(303);
      const interaction = new URL(start.headers.get('location')!, publicUrl);
      expect(interaction.pathname).toMatch(/^\/idp\/interaction\/[\w-]+$/);
      expect(browser.cookies(interaction).has('_idp_interaction')).toBe(true);
      expect(browser.cookies(`${publicUrl}/`).size).toBe(0);

      const page = await browser.fetch(interaction);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Sign in');
      const signupPage = await (await browser.fetch(`${interaction.href}?mode=signup`)).text();
      expect(signupPage).toContain('autocomplete="new-password"');

      const password = 'a long enough password';
      const created = await browser.fetch(`${interaction.href}/signup`, {
        method: 'POST',
        body: new URLSearchParams({ name: 'Wren Writer', email, password }),
      });
      expect(created.status).toBe(303);
      const callback = await followOut(browser, created.headers.get('location')!);
      expect(callback.origin + callback.pathname).toBe(`${publicUrl}/auth/callback`);
      expect(callback.searchParams.get('state')).toBe(request.state);
      expect(callback.searchParams.get('iss')).toBe(idp.issuer);
      const code = callback.searchParams.get('code')!;
      expect(code).toBeTruthy();

      const tokens = await exchange(code, request.verifier);
      expect(tokens.status).toBe(200);
      const body = (await tokens.json()) as { id_token: string; access_token: string };
      idToken = body.id_token;
      const claims = await verifiedClaims(idToken);
      expect(claims).toMatchObject({
        iss: idp.issuer,
        aud: 'inkwell',
        nonce: request.nonce,
        email,
        email_verified: false,
        name: 'Wren Writer',
      });
      expect(claims['sub']).toMatch(/^[0-9a-f-]{36}$/);

      const replay = await exchange(code, request.verifier);
      expect(replay.status).toBe(400);
      expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');

      const joined = logLines.join('\n');
      for (const secret of [password, code, body.access_token, idp.clientSecret]) {
        expect(joined).not.toContain(secret);
      }
    });

    it('rejects a code exchange with the wrong client secret', async () => {
      const request = authorizationRequest();
      const callback = await followOut(browser, request.url);
      const response = await exchange(
        callback.searchParams.get('code')!,
        request.verifier,
        'wrong',
      );
      expect(response.status).toBe(401);
    });

    it('keeps its client secret, signing keys and sessions across a restart', async () => {
      const restarted = await createEmbeddedIdp({ db, publicUrl, logger });
      expect(restarted.clientSecret).toBe(idp.clientSecret);
      idp = restarted;
      // The ID token from before the restart still verifies against the new instance's keys.
      expect((await verifiedClaims(idToken))['email']).toBe(email);
      // The provider session survives too: no sign-in page this time.
      const request = authorizationRequest();
      const callback = await followOut(browser, request.url);
      expect(callback.pathname).toBe('/auth/callback');
      const tokens = await exchange(callback.searchParams.get('code')!, request.verifier);
      expect(tokens.status).toBe(200);
    });

    it('ends the provider session from the app with an Inkwell sign-out page', async () => {
      const end = new URL(discovery.end_session_endpoint);
      end.search = new URLSearchParams({
        id_token_hint: idToken,
        post_logout_redirect_uri: `${publicUrl}/auth/signed-out`,
        state: 'bye',
      }).toString();
      const confirm = await browser.fetch(end);
      expect(confirm.status).toBe(200);
      expect(confirm.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await confirm.text();
      expect(html).toContain('Inkwell');
      expect(html).not.toContain('<script');
      const action = /action="([^"]+)"/.exec(html)?.[1];
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
      expect(action).toBe(`${publicUrl}/idp/session/end/confirm`);

      const done = await browser.fetch(action!, {
        method: 'POST',
        body: new URLSearchParams({ xsrf: xsrf!, logout: 'yes' }),
      });
      expect(done.status).toBe(303);
      expect(done.headers.get('location')).toBe(`${publicUrl}/auth/signed-out?state=bye`);

      const next = await browser.fetch(authorizationRequest().url);
      expect(new URL(next.headers.get('location')!, publicUrl).pathname).toMatch(
        /^\/idp\/interaction\//,
      );
    });
  });

  it('renders provider errors as an Inkwell page without internals', async () => {
    const response = await fetch(`${idp.issuer}/auth?client_id=nobody&response_type=code`, {
      headers: { Accept: 'text/html' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await response.text();
    expect(html).toContain('Sign-in could not continue');
    expect(html).not.toMatch(/at .*\.js:\d+/);
  });

  it('behind TLS termination builds https URLs and Secure cookies, ignoring forwarded hosts', async () => {
    const behindProxy = await createEmbeddedIdp({
      db,
      publicUrl: 'https://inkwell.example',
      logger,
    });
    const proxied = createServer((req, res) => behindProxy.handle(req, res));
    await new Promise<void>((resolve) => proxied.listen(0, 'localhost', resolve));
    const direct = `http://localhost:${(proxied.address() as AddressInfo).port}`;
    try {
      const headers = { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'http' };
      const metadata = (await (
        await fetch(`${direct}/idp/.well-known/openid-configuration`, { headers })
      ).json()) as Discovery;
      expect(metadata.issuer).toBe('https://inkwell.example/idp');
      expect(metadata.token_endpoint).toBe('https://inkwell.example/idp/token');
      const url = new URL(`${direct}/idp/auth`);
      url.search = authorizationRequest().url.search;
      url.searchParams.set('redirect_uri', 'https://inkwell.example/auth/callback');
      const response = await fetch(url, { headers, redirect: 'manual' });
      expect(response.status).toBe(303);
      const cookies = response.headers.getSetCookie();
      expect(cookies.length).toBeGreaterThan(0);
      for (const cookie of cookies) {
        expect(cookie).toMatch(/; secure/i);
        expect(cookie).toMatch(/; path=\/idp\//i);
      }
    } finally {
      proxied.closeAllConnections();
      await new Promise((resolve) => proxied.close(resolve));
    }
  });

  it('answers paths that only look like its prefix with 404', async () => {
    expect((await fetch(`${publicUrl}/idpx/.well-known/openid-configuration`)).status).toBe(404);
  });
});
