import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DocumentContent, DocumentRecord } from '../../common/api/documents.ts';
import type {
  ListVersionsResponse,
  VersionResponse,
  VersionSummaryResponse,
} from '../../common/api/versions.ts';
import { appendParagraph, connectClient, type CollabClient } from '../collab/test/collabClient.ts';
import { DATABASE_KINDS, skipReason, type DatabaseKind } from '../test/databases.ts';
import { freePort } from '../test/freePort.ts';
import type { TestBrowser } from '../test/hostedProvider.ts';
import { adminQuery, databaseUrl } from '../test/postgresServer.ts';
import { spawnServer, type ServerProcess } from '../test/serverProcess.ts';
import { signedInBrowser } from '../test/signIn.ts';

/*
 * Versions kept while the server is killed (docs/PRODUCT.md "Version history": a SIGKILL while a
 * version is taken loses nothing acknowledged). A writer types line after line while versions are
 * named every few lines; the server gets SIGKILL in the middle. After a restart every version the
 * server answered 201 for is listed and reads back with the lines typed before it was asked for,
 * and no version is listed that cannot be read.
 */

async function storage(
  kind: DatabaseKind,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (kind === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), 'inkwell-version-kill-'));
    return { env: { DATA_DIR: dir }, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const { postgres } = inject('testDatabases');
  if ('skipReason' in postgres) throw new Error(postgres.skipReason);
  const name = `version_kill_${randomBytes(6).toString('hex')}`;
  await adminQuery(postgres.url, `CREATE DATABASE ${name} TEMPLATE template0`);
  return {
    env: { DATABASE_URL: databaseUrl(postgres.url, name) },
    drop: () => adminQuery(postgres.url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

const cookieHeader = (browser: TestBrowser, url: string) =>
  [...browser.cookies(url)].map(([name, value]) => `${name}=${value}`).join('; ');

const textsOf = (content: DocumentContent) =>
  ((content.content ?? []) as Array<{ content?: Array<{ text: string }> }>)
    .map((block) => block.content?.[0]?.text ?? '')
    .filter((text) => text !== '');

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`);

/** A version the server answered 201 for, and how many lines were saved before it was asked. */
interface Answered {
  id: string;
  name: string;
  linesBefore: number;
}

for (const kind of DATABASE_KINDS) {
  describe.skipIf(skipReason(kind) !== undefined)(
    `versions kept while the server is killed on ${kind}`,
    () => {
      let data: Awaited<ReturnType<typeof storage>>;
      let env: Record<string, string>;
      let server: ServerProcess | undefined;
      let client: CollabClient | undefined;

      beforeAll(async () => {
        data = await storage(kind);
        env = { ...data.env, PORT: String(await freePort()) };
      });
      afterAll(async () => {
        client?.destroy();
        if (server?.child.exitCode === null) server.child.kill('SIGKILL');
        await data.drop();
      });

      it('lists and reads back every version answered before SIGKILL, and none half-kept', async () => {
        server = await spawnServer(env);
        const browser = await signedInBrowser(server);
        const writeHeaders = {
          'Content-Type': 'application/json',
          'X-Inkwell-Request': '1',
          Origin: server.url,
        };
        const created = await browser.fetch(`${server.url}/api/documents`, {
          method: 'POST',
          headers: writeHeaders,
          body: JSON.stringify({ title: 'Kept through a kill' }),
        });
        const { document } = (await created.json()) as { document: DocumentRecord };
        const versionsUrl = () => `${server!.url}/api/documents/${document.id}/versions`;
        client = connectClient(server.url, cookieHeader(browser, server.url), document.id);
        await client.synced;

        const answered: Answered[] = [];
        const asked: Promise<void>[] = [];
        const keep = (name: string, linesBefore: number) =>
          browser
            .fetch(versionsUrl(), {
              method: 'POST',
              headers: writeHeaders,
              body: JSON.stringify({ name }),
            })
            .then(async (res) => {
              if (res.status !== 201) return;
              const { version } = (await res.json()) as VersionSummaryResponse;
              answered.push({ id: version.id, name, linesBefore });
            })
            // The kill cuts requests in flight: those were never answered, and promise nothing.
            .catch(() => undefined);

        let acknowledged = 0;
        const killer = setTimeout(() => server?.child.kill('SIGKILL'), 1500 + Math.random() * 700);
        for (let line = 1; ; line += 1) {
          appendParagraph(client, `line ${line}`);
          try {
            await client.saved();
          } catch {
            break;
          }
          acknowledged = line;
          // A version asked for every other line, not awaited: keeping overlaps typing.
          if (line % 2 === 0) asked.push(keep(`after line ${line}`, line));
          await new Promise((pause) => setTimeout(pause, 10));
        }
        clearTimeout(killer);
        expect(await server.exited).toBeNull();
        await Promise.all(asked);
        client.destroy();
        expect(acknowledged).toBeGreaterThan(5);
        expect(answered.length).toBeGreaterThan(1);

        server = await spawnServer(env);
        const listed = (await (
          await browser.fetch(`${versionsUrl()}?limit=100`)
        ).json()) as ListVersionsResponse;
        const byId = new Map(listed.versions.map((version) => [version.id, version]));
        for (const version of answered) {
          expect(byId.get(version.id)?.name, version.name).toBe(version.name);
        }
        // Every listed version reads back whole; the answered ones with what was saved before.
        for (const version of listed.versions) {
          const res = await browser.fetch(`${versionsUrl()}/${version.id}`);
          expect(res.status, `version ${version.id}`).toBe(200);
          const { content } = (await res.json()) as VersionResponse;
          const texts = textsOf(content);
          const promised = answered.find((a) => a.id === version.id)?.linesBefore ?? 0;
          expect(texts.slice(0, promised)).toEqual(lines(promised));
          // Nothing but the lines typed, in their order.
          expect(texts).toEqual(lines(texts.length));
        }

        // Keeping goes on after the restart, over the document as it was stored.
        const after = await browser.fetch(versionsUrl(), {
          method: 'POST',
          headers: { ...writeHeaders, Origin: server.url },
          body: JSON.stringify({ name: 'After the restart' }),
        });
        expect(after.status).toBe(201);
        const { version: kept } = (await after.json()) as VersionSummaryResponse;
        const read = await browser.fetch(`${versionsUrl()}/${kept.id}`);
        const texts = textsOf(((await read.json()) as VersionResponse).content);
        expect(texts.slice(0, acknowledged)).toEqual(lines(acknowledged));
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      });
    },
  );
}
