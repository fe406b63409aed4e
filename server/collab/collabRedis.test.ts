import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentRecord } from '../../common/api/documents.ts';
import type { Database } from '../db/database.ts';
import { sessionCookieName } from '../middleware/session.ts';
import type { RunningServer } from '../startServer.ts';
import { openTestDatabase, skipReason } from '../test/databases.ts';
import { freePort } from '../test/freePort.ts';
import { startTestServer, TestClient } from '../test/testServer.ts';
import { testUserWithSession } from '../test/users.ts';
import { appendParagraph, connectClient, until, type CollabClient } from './test/collabClient.ts';

/** Debian's Redis server (apt-get install redis-server). */
const REDIS_SERVER = '/usr/bin/redis-server';

/** A throwaway Redis on a free loopback port, nothing written to disk. */
async function startRedis(): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let printed = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
      if (printed.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`redis-server exited with ${code}:\n${printed}`)),
    );
  });
  return { url: `redis://127.0.0.1:${port}`, process: child };
}

describe.skipIf(skipReason('postgres') !== undefined || !existsSync(REDIS_SERVER))(
  'two instances sharing live documents through Redis',
  () => {
    let redis: Awaited<ReturnType<typeof startRedis>>;
    let db: Database;
    let servers: RunningServer[] = [];
    const clients: CollabClient[] = [];

    beforeAll(async () => {
      redis = await startRedis();
      db = await openTestDatabase('postgres');
      const collab = { redisUrl: redis.url, maxMessageBytes: 8 * 1024 * 1024 };
      servers = [await startTestServer(db, { collab }), await startTestServer(db, { collab })];
    });
    afterAll(async () => {
      for (const client of clients) client.destroy();
      for (const server of servers) await server.close();
      await db?.close();
      redis?.process.kill('SIGTERM');
    });

    it('sends an update typed on one instance to a client of the other', async () => {
      const { token } = await testUserWithSession(db, 'Ada');
      const [first, second] = servers as [RunningServer, RunningServer];
      const api = new TestClient(first, token);
      const created = await api.request('POST', '/api/documents', {
        json: {
          title: 'Shared',
          content: {
            type: 'doc',
            content: [{ type: 'paragraph', content: [{ type: 'text', text: 'start' }] }],
          },
        },
      });
      const { document } = (await created.json()) as { document: DocumentRecord };
      const cookie = (server: RunningServer) => `${sessionCookieName(server.url)}=${token}`;
      const one = connectClient(first.url, cookie(first), document.id);
      const two = connectClient(second.url, cookie(second), document.id);
      clients.push(one, two);
      await Promise.all([one.synced, two.synced]);
      expect(two.blocks()).toEqual(['start']);

      appendParagraph(one, 'typed on the first');
      await until(() => two.blocks().includes('typed on the first'));
      appendParagraph(two, 'typed on the second');
      await until(() => one.blocks().includes('typed on the second'));
      await Promise.all([one.saved(), two.saved()]);
      expect(one.blocks()).toEqual(two.blocks());

      // Both instances wrote their own updates; the stored document has all of them.
      const res = await new TestClient(second, token).request(
        'GET',
        `/api/documents/${document.id}`,
      );
      const stored = ((await res.json()) as { document: DocumentRecord }).document;
      const texts = (stored.content.content as Array<{ content?: Array<{ text: string }> }>).map(
        (block) => block.content?.[0]?.text,
      );
      expect(texts).toEqual(
        expect.arrayContaining(['start', 'typed on the first', 'typed on the second']),
      );
    });

    it('closes a session’s sockets on the other instance at its next check after a sign-out', async () => {
      const { token } = await testUserWithSession(db, 'Bea');
      const [first, second] = servers as [RunningServer, RunningServer];
      const created = await new TestClient(first, token).request('POST', '/api/documents', {
        json: { title: 'Leaving' },
      });
      const { document } = (await created.json()) as { document: DocumentRecord };
      const elsewhere = connectClient(
        second.url,
        `${sessionCookieName(second.url)}=${token}`,
        document.id,
      );
      clients.push(elsewhere);
      await elsewhere.synced;
      expect(
        (await new TestClient(first, token).request('POST', '/api/session/logout')).status,
      ).toBe(200);
      // The check runs every 30 s; run it now rather than wait.
      await second.services.collab!.revalidate();
      expect(await elsewhere.closed).toBe(4401);
    });
  },
);
