/**
 * Test harness: a stand-in for a hosted identity provider (Auth0, Okta, Keycloak…) that differs from
 * the embedded one wherever providers differ: an issuer with a path, ES256 ID tokens only,
 * `client_secret_post` by default, its own origin. Plus a cookie-keeping fetch to drive it.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { generateSigningKey } from '../auth/idp/keys.ts';

/** Options of `startHostedProvider`. */
export interface HostedProviderOptions {
  /** How the client authenticates at the token endpoint; the only method discovery advertises. */
  tokenAuthMethod?: 'client_secret_post' | 'client_secret_basic';
  /** The app's callback URL, registered for the client. */
  redirectUri: string;
  /** Where the provider may send the browser after sign-out. */
  postLogoutRedirectUri: string;
}

/** The one account the provider knows. */
export interface TestAccount {
  sub: string;
  email: string;
  password: string;
  name: string;
}

/** A running hosted provider. */
export interface HostedProvider {
  /** `http://localhost:<port>/tenants/acme/oidc`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account its sign-in form accepts. */
  account: TestAccount;
  /**
   * Opens `authorizationUrl` in `browser` (a fresh one by default), signs in with `email` and
   * `password` (the test account's by default) and returns the URL the provider sends the browser
   * back to, with `code` and `state` or `error`.
   */
  login(
    authorizationUrl: string | URL,
    options?: { email?: string; password?: string; browser?: TestBrowser },
  ): Promise<URL>;
  /** Stops the server and drops its connections. */
  close(): Promise<void>;
}

const MOUNT_PATH = '/tenants/acme/oidc';
const SCOPE = 'openid email profile';

/** Starts a hosted-style provider on `localhost` and a free port. */
export async function startHostedProvider(options: HostedProviderOptions): Promise<HostedProvider> {
  const method = options.tokenAuthMethod ?? 'client_secret_post';
  const account: TestAccount = {
    sub: 'acme|1001',
    email: 'ada@acme.test',
    password: 'correct horse battery staple',
    name: 'Ada Lovelace',
  };
  const clientId = 'acme-inkwell';
  const clientSecret = randomBytes(24).toString('base64url');

  // The issuer names the port, so the provider is made once the server listens.
  const current: { started?: Started } = {};
  const server = createServer((req, res) => {
    if (!current.started) throw new Error('the provider is not started yet');
    route(current.started, account, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end('server error');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://localhost:${port}${MOUNT_PATH}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: [options.postLogoutRedirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: method,
        id_token_signed_response_alg: 'ES256',
        scope: SCOPE,
      },
    ],
    clientAuthMethods: [method],
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    jwks: { keys: [generateSigningKey('ES256')] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: ['openid'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false,
    cookies: {
      names: { session: '_acme_session', interaction: '_acme_interaction', resume: '_acme_resume' },
      keys: [randomBytes(32).toString('base64url')],
    },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        logoutSource: (ctx, form) => {
          ctx.body = `<!doctype html><title>Sign out</title>${form}
            <button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>`;
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.body = '<!doctype html><title>Signed out</title><p>Signed out.</p>';
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `${MOUNT_PATH}/interaction/${interaction.uid}` },
    loadExistingGrant: grantEverything,
    findAccount: (_ctx, sub) =>
      sub === account.sub
        ? {
            accountId: sub,
            claims: () => ({ sub, email: account.email, email_verified: true, name: account.name }),
          }
        : undefined,
    clientBasedCORS: () => false,
  };
  const provider = new Provider(issuer, configuration);
  // Koa would print every failed request; tests look at responses instead.
  provider.silent = true;
  current.started = { provider, callback: provider.callback() };

  return {
    issuer,
    clientId,
    clientSecret,
    account,
    login: (authorizationUrl, loginOptions = {}) =>
      login(issuer, new URL(authorizationUrl), {
        email: loginOptions.email ?? account.email,
        password: loginOptions.password ?? account.password,
        browser: loginOptions.browser ?? createTestBrowser(),
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

interface Started {
  provider: Provider;
  callback: ReturnType<Provider['callback']>;
}

async function route(
  { provider, callback }: Started,
  account: TestAccount,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = req.url ?? '/';
  if (!url.startsWith(MOUNT_PATH)) {
    res.writeHead(404).end();
    return;
  }
  const interaction = /^\/interaction\/([\w-]+)$/.exec(url.slice(MOUNT_PATH.length));
  if (interaction) {
    await signIn(provider, account, interaction[1]!, req, res);
    return;
  }
  (req as IncomingMessage & { originalUrl?: string }).originalUrl = url;
  req.url = url.slice(MOUNT_PATH.length) || '/';
  await callback(req, res);
}

/** GET shows a username/password form; POST to the same URL checks it against the test account. */
async function signIn(
  provider: Provider,
  account: TestAccount,
  uid: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(req, res).catch((error: unknown) => {
    if (error instanceof errors.SessionNotFound) return undefined;
    throw error;
  });
  if (!details || details.uid !== uid) {
    res.writeHead(400, { 'Content-Type': 'text/plain' }).end('interaction expired');
    return;
  }
  let failed = false;
  if (req.method === 'POST') {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    if (form.get('username') === account.email && form.get('password') === account.password) {
      const result = { login: { accountId: account.sub } };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      return;
    }
    failed = true;
  }
  res.writeHead(failed ? 401 : 200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>Acme sign-in</title>
    ${failed ? '<p role="alert">Wrong username or password.</p>' : ''}
    <form method="post" action="${MOUNT_PATH}/interaction/${uid}">
      <label>Username <input name="username" autocomplete="username"></label>
      <label>Password <input name="password" type="password" autocomplete="current-password"></label>
      <button type="submit">Sign in</button>
    </form>`);
}

/** Consent is taken as given, as organisations configure first-party apps on their providers. */
async function grantEverything(ctx: KoaContextWithOIDC) {
  const { client, account, session, provider } = ctx.oidc;
  if (!client || !account || !session) return undefined;
  const grantId = session.grantIdFor(client.clientId);
  const grant =
    (grantId ? await provider.Grant.find(grantId) : undefined) ??
    new provider.Grant({ clientId: client.clientId, accountId: account.accountId });
  grant.addOIDCScope(SCOPE);
  await grant.save();
  return grant;
}

async function login(
  issuer: string,
  start: URL,
  options: { email: string; password: string; browser: TestBrowser },
): Promise<URL> {
  const { browser } = options;
  let url = start;
  for (let step = 0; step < 10; step += 1) {
    let response = await browser.fetch(url);
    if (response.status === 200 && url.pathname.startsWith(`${MOUNT_PATH}/interaction/`)) {
      await response.body?.cancel();
      const body = new URLSearchParams({ username: options.email, password: options.password });
      response = await browser.fetch(url, { method: 'POST', body });
    }
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (!location) throw new Error(`sign-in stopped at ${url.pathname} with ${response.status}`);
    url = new URL(location, url);
    if (!url.href.startsWith(`${issuer}/`)) return url;
  }
  throw new Error('sign-in did not leave the provider after 10 redirects');
}

/** A fetch that keeps cookies like a browser (host-only, path-scoped) and never follows redirects. */
export interface TestBrowser {
  /** Sends the jar's cookies for `url`, stores the ones the response sets, returns the response. */
  fetch(url: string | URL, init?: RequestInit): Promise<Response>;
  /** The cookies the jar would send to `url`, as `name=value` pairs. */
  cookies(url: string | URL): Map<string, string>;
}

interface StoredCookie {
  name: string;
  value: string;
  host: string;
  path: string;
  expires: number;
}

/** A fresh `TestBrowser` with an empty cookie jar. */
export function createTestBrowser(): TestBrowser {
  const jar = new Map<string, StoredCookie>();
  const matching = (url: URL) =>
    [...jar.values()]
      .filter((cookie) => cookie.expires > Date.now() && cookie.host === url.hostname)
      .filter(
        (cookie) =>
          url.pathname === cookie.path ||
          url.pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`),
      )
      .sort((a, b) => b.path.length - a.path.length);
  const store = (url: URL, header: string) => {
    const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
    const split = pair.indexOf('=');
    const cookie: StoredCookie = {
      name: pair.slice(0, split),
      value: pair.slice(split + 1),
      host: url.hostname,
      // RFC 6265 §5.1.4: without Path, the request path up to its last slash.
      path: url.pathname.slice(0, Math.max(1, url.pathname.lastIndexOf('/'))),
      expires: Number.POSITIVE_INFINITY,
    };
    for (const attribute of attributes) {
      const [key = '', value = ''] = attribute.split('=');
      const name = key.toLowerCase();
      if (name === 'path' && value.startsWith('/')) cookie.path = value;
      if (name === 'expires') cookie.expires = Date.parse(value);
      if (name === 'max-age') cookie.expires = Date.now() + Number(value) * 1000;
    }
    jar.set(`${cookie.host};${cookie.path};${cookie.name}`, cookie);
  };
  return {
    async fetch(input, init = {}) {
      const url = new URL(input);
      const headers = new Headers(init.headers);
      const cookies = matching(url).map((cookie) => `${cookie.name}=${cookie.value}`);
      if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
      const response = await fetch(url, { ...init, headers, redirect: 'manual' });
      for (const header of response.headers.getSetCookie()) store(url, header);
      return response;
    },
    cookies: (input) =>
      new Map(matching(new URL(input)).map((cookie) => [cookie.name, cookie.value])),
  };
}
