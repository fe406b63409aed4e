import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentRecord } from '../common/api/documents.ts';
import { DATABASE_KINDS, skipReason } from './test/databases.ts';
import { freePort } from './test/freePort.ts';
import type { TestBrowser } from './test/hostedProvider.ts';
import { serverStorage, type ServerStorage } from './test/serverStorage.ts';
import { spawnServer, type ServerProcess } from './test/serverProcess.ts';
import { signedInBrowser } from './test/signIn.ts';

const text = (n: number) => `revision ${n} ${'lorem ipsum '.repeat(200)}`;
const contentOf = (n: number) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: text(n) }] }],
});

for (const kind of DATABASE_KINDS) {
  describe.skipIf(skipReason(kind) !== undefined)(`a server killed mid-save on ${kind}`, () => {
    let data: ServerStorage;
    let env: Record<string, string>;
    let server: ServerProcess | undefined;

    beforeAll(async () => {
      data = await serverStorage(kind, 'durability');
      env = { ...data.env, PORT: String(await freePort()) };
    });
    afterAll(async () => {
      if (server?.child.exitCode === null) server.child.kill('SIGKILL');
      await data.drop();
    });

    async function save(browser: TestBrowser, url: string, id: string, base: number) {
      return browser.fetch(`${url}/api/documents/${id}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json', 'X-Inkwell-Request': '1', Origin: url },
        body: JSON.stringify({ baseVersion: base, content: contentOf(base + 1) }),
      });
    }

    it('keeps every acknowledged version through SIGKILL and a restart', async () => {
      server = await spawnServer(env);
      const browser = await signedInBrowser(server);
      const created = await browser.fetch(`${server.url}/api/documents`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Inkwell-Request': '1',
          Origin: server.url,
        },
        body: JSON.stringify({ title: 'Survivor', content: contentOf(1) }),
      });
      const { document } = (await created.json()) as { document: DocumentRecord };

      // `PATCH` saves back to back; the kill lands in the middle.
      let acknowledged = 1;
      const killer = setTimeout(() => server?.child.kill('SIGKILL'), 1500 + Math.random() * 500);
      for (;;) {
        let res: Response;
        try {
          res = await save(browser, server.url, document.id, acknowledged);
        } catch {
          break;
        }
        if (res.status !== 200)
          throw new Error(`save failed with ${res.status}: ${await res.text()}`);
        acknowledged = ((await res.json()) as { version: number }).version;
      }
      clearTimeout(killer);
      expect(await server.exited).toBeNull();
      expect(acknowledged).toBeGreaterThan(5);

      server = await spawnServer(env);
      const reread = await browser.fetch(`${server.url}/api/documents/${document.id}`);
      expect(reread.status).toBe(200);
      const stored = ((await reread.json()) as { document: DocumentRecord }).document;
      // The save in flight at the kill may have committed without its answer arriving.
      expect([acknowledged, acknowledged + 1]).toContain(stored.version);
      expect(stored.content).toEqual(contentOf(stored.version));

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    });

    it('finishes a save in flight on SIGTERM before it exits', async () => {
      server = await spawnServer(env);
      const browser = await signedInBrowser(server);
      const created = await browser.fetch(`${server.url}/api/documents`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Inkwell-Request': '1',
          Origin: server.url,
        },
        body: JSON.stringify({ title: 'Graceful' }),
      });
      const { document } = (await created.json()) as { document: DocumentRecord };
      // The body arrives in two parts with the signal in between, so the save is surely in flight.
      const bytes = new TextEncoder().encode(
        JSON.stringify({ baseVersion: 1, content: contentOf(2) }),
      );
      let sendRest = () => {};
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, 100));
          sendRest = () => {
            controller.enqueue(bytes.slice(100));
            controller.close();
          };
        },
      });
      const pending = browser.fetch(`${server.url}/api/documents/${document.id}`, {
        method: 'PATCH',
        headers: {
          'Content-Type': 'application/json',
          'X-Inkwell-Request': '1',
          Origin: server.url,
        },
        body,
        duplex: 'half',
      } as RequestInit);
      await new Promise((wait) => setTimeout(wait, 300));
      server.child.kill('SIGTERM');
      await new Promise((wait) => setTimeout(wait, 300));
      sendRest();
      const res = await pending;
      expect(res.status).toBe(200);
      expect(await server.exited).toBe(0);

      server = await spawnServer(env);
      const reread = await browser.fetch(`${server.url}/api/documents/${document.id}`);
      expect(((await reread.json()) as { document: DocumentRecord }).document.version).toBe(2);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    });
  });
}
