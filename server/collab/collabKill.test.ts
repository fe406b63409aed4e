import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentRecord } from '../../common/api/documents.ts';
import { DATABASE_KINDS, skipReason } from '../test/databases.ts';
import { freePort } from '../test/freePort.ts';
import { cookieHeader, serverStorage, type ServerStorage } from '../test/serverStorage.ts';
import { spawnServer, type ServerProcess } from '../test/serverProcess.ts';
import { signedInBrowser } from '../test/signIn.ts';
import { appendParagraph, connectClient, type CollabClient } from './test/collabClient.ts';

for (const kind of DATABASE_KINDS) {
  describe.skipIf(skipReason(kind) !== undefined)(
    `a live server killed mid-typing on ${kind}`,
    () => {
      let data: ServerStorage;
      let env: Record<string, string>;
      let server: ServerProcess | undefined;
      let client: CollabClient | undefined;

      beforeAll(async () => {
        data = await serverStorage(kind, 'collab-kill');
        env = { ...data.env, PORT: String(await freePort()) };
      });
      afterAll(async () => {
        client?.destroy();
        if (server?.child.exitCode === null) server.child.kill('SIGKILL');
        await data.drop();
      });

      it('keeps every edit the client was told is saved through SIGKILL and a restart', async () => {
        server = await spawnServer(env);
        const browser = await signedInBrowser(server);
        const created = await browser.fetch(`${server.url}/api/documents`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-Inkwell-Request': '1',
            Origin: server.url,
          },
          body: JSON.stringify({ title: 'Survivor' }),
        });
        const { document } = (await created.json()) as { document: DocumentRecord };
        client = connectClient(server.url, cookieHeader(browser, server.url), document.id);
        await client.synced;

        // Lines typed one after another, each waiting for "Saved"; the kill lands in the middle.
        let acknowledged = 0;
        const killer = setTimeout(() => server?.child.kill('SIGKILL'), 1500 + Math.random() * 500);
        for (let line = 1; ; line += 1) {
          appendParagraph(client, `line ${line}`);
          try {
            await client.saved();
          } catch {
            break;
          }
          acknowledged = line;
          // A fast typist's pace, well under the socket's flood limit.
          await new Promise((pause) => setTimeout(pause, 10));
        }
        clearTimeout(killer);
        expect(await server.exited).toBeNull();
        expect(acknowledged).toBeGreaterThan(5);
        client.destroy();

        server = await spawnServer(env);
        const reread = await browser.fetch(`${server.url}/api/documents/${document.id}`);
        expect(reread.status).toBe(200);
        const stored = ((await reread.json()) as { document: DocumentRecord }).document;
        const lines = (stored.content.content as Array<{ content?: Array<{ text: string }> }>)
          .map((block) => block.content?.[0]?.text ?? '')
          .filter((text) => text !== '');
        // The line in flight at the kill may have been stored without its "Saved" arriving.
        expect(lines.slice(0, acknowledged)).toEqual(
          Array.from({ length: acknowledged }, (_, i) => `line ${i + 1}`),
        );
        expect(lines.length).toBeLessThanOrEqual(acknowledged + 1);

        // A fresh client gets them too.
        client = connectClient(server.url, cookieHeader(browser, server.url), document.id);
        await client.synced;
        expect(
          client
            .blocks()
            .filter((text) => text !== '')
            .slice(0, acknowledged),
        ).toEqual(lines.slice(0, acknowledged));
        client.destroy();
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      });
    },
  );
}
