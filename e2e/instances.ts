import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort } from '../server/test/freePort.ts';
import { startPostgresServer, type PostgresServer } from '../server/test/postgresServer.ts';
import { startRedis, type RedisServer } from '../server/test/redisServer.ts';
import type { TestAccount } from './auth.ts';
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
export const HOSTS = ['127.0.0.1', '127.0.0.2'] as const;

/** The two instances of a test file, started before its tests and stopped after. */
export interface Instances {
  /** The address every browser uses, `http://localhost:<port>`. */
  publicUrl(): string;
  /** The port both instances listen on. */
  port(): number;
  /** The Chromium whose `localhost` is instance `index`. */
  browser(index: number): Browser;
  /** Opens `path` in a new context of instance `index`'s browser; checks which instance answered. */
  openOn(index: number, path: string): Promise<{ context: BrowserContext; page: Page }>;
}

/** Starts two instances (and their database and Redis) around the tests of the calling file. */
export function useInstances(label: string): Instances {
  let postgres: PostgresServer | null = null;
  let redis: RedisServer | undefined;
  const servers: RunningServer[] = [];
  const browsers: Browser[] = [];
  let port = 0;
  const publicUrl = () => `http://localhost:${port}`;

  before(async () => {
    postgres = await startPostgresServer({ required: true });
    redis = await startRedis();
    port = await freePort();
    // One after the other: the first migrates the database, the second finds it done.
    for (const [index, host] of HOSTS.entries()) {
      servers.push(
        await startServer({
          env: {
            HOST: host,
            PORT: String(port),
            PUBLIC_URL: publicUrl(),
            DATABASE_URL: postgres!.url,
            REDIS_URL: redis.url,
            IDP_SIGNUPS_PER_HOUR: '10000',
          },
          directUrl: `http://${host}:${port}`,
          label: `${label} ${'AB'[index]}`,
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

  return {
    publicUrl,
    port: () => port,
    browser: (index) => browsers[index]!,
    async openOn(index, path) {
      const context = await browsers[index]!.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const response = await page.goto(`${publicUrl()}${path}`);
      assert.equal(
        (await response?.serverAddr())?.ipAddress,
        HOSTS[index],
        'the instance answered',
      );
      return { context, page };
    },
  };
}

/** Signs in on the embedded provider's page (where a signed-out visit lands) and waits to return. */
export async function signIn(page: Page, account: TestAccount): Promise<void> {
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/idp/'));
}
