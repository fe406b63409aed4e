import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { DocumentContent, DocumentRecord } from '../../common/api/documents.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../common/api/errors.ts';
import {
  listVersionsResponseSchema,
  versionResponseSchema,
  versionSummaryResponseSchema,
  type VersionSummary,
} from '../../common/api/versions.ts';
import { appendParagraph, connectClient, type CollabClient } from '../collab/test/collabClient.ts';
import { DATABASE_KINDS, skipReason } from '../test/databases.ts';
import { freePort } from '../test/freePort.ts';
import type { TestBrowser } from '../test/hostedProvider.ts';
import { cookieHeader, serverStorage, type ServerStorage } from '../test/serverStorage.ts';
import { spawnServer, type ServerProcess } from '../test/serverProcess.ts';
import { signedInBrowser } from '../test/signIn.ts';

/*
 * docs/PRODUCT.md "Version history": a SIGKILL while versions are being kept loses nothing
 * acknowledged. The spawned server keeps automatic versions on its production timing (a pause of
 * minutes; the process takes no shorter one), so the automatic versions here are those kept when
 * the last writer leaves, which the writer does now and then.
 */

/** A POST as the app sends it: JSON, with the CSRF header and the app's Origin. */
function post(browser: TestBrowser, url: string, path: string, body: unknown) {
  return browser.fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      [CSRF_HEADER]: CSRF_HEADER_VALUE,
      Origin: url,
    },
    body: JSON.stringify(body),
  });
}

/** The text of each paragraph that has any, in order. */
function linesOf(content: DocumentContent): string[] {
  return ((content.content ?? []) as Array<{ content?: Array<{ text?: string }> }>)
    .map((block) => block.content?.[0]?.text ?? '')
    .filter((text) => text !== '');
}

/** `line 1` … `line count`, what the writer types. */
const typed = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A named version whose POST answered 201 before the kill. */
interface Kept {
  id: string;
  /** Lines acknowledged before its POST was sent: all are in it. */
  acknowledgedBefore: number;
  /** Lines sent before its answer came: none later is in it. */
  sentBeforeAnswer: number;
  /** Its lines as read back before the kill, when the read came in time. */
  lines?: string[];
}

for (const kind of DATABASE_KINDS) {
  describe.skipIf(skipReason(kind) !== undefined)(
    `a live server killed while versions are kept on ${kind}`,
    () => {
      let data: ServerStorage;
      let env: Record<string, string>;
      let server: ServerProcess | undefined;
      let client: CollabClient | undefined;

      beforeAll(async () => {
        data = await serverStorage(kind, 'version-kill');
        env = { ...data.env, PORT: String(await freePort()) };
      });
      afterAll(async () => {
        client?.destroy();
        if (server?.child.exitCode === null) server.child.kill('SIGKILL');
        await data.drop();
      });

      it('keeps every version it answered 201 for, whole, and every acknowledged edit', async () => {
        let running = await spawnServer(env);
        server = running;
        const browser = await signedInBrowser(running);
        const created = await post(browser, running.url, '/api/documents', { title: 'Kept' });
        const { document } = (await created.json()) as { document: DocumentRecord };
        const versionsPath = `/api/documents/${document.id}/versions`;
        // One Y.Doc across the writer's sockets, as the editor keeps it across reconnects.
        const doc = new Y.Doc();
        const join = async () => {
          client = connectClient(running.url, cookieHeader(browser, running.url), document.id, {
            doc,
          });
          await client.synced;
          return client;
        };
        let writer = await join();

        let sent = 0;
        let acknowledged = 0;
        let killed = false;
        /** Types the next line and waits for "Saved"; false once the server is gone. */
        const typeLine = async () => {
          sent += 1;
          appendParagraph(writer, `line ${sent}`);
          try {
            await writer.saved();
          } catch (error) {
            if (killed) return false;
            throw error;
          }
          acknowledged = sent;
          return true;
        };
        /** The last writer leaves (the document may unload, keeping a version) and comes back. */
        const leaveAndReturn = async (away: number) => {
          writer.destroy();
          await pause(away);
          try {
            writer = await join();
          } catch (error) {
            if (killed) return false;
            throw error;
          }
          return true;
        };

        // One automatic version for certain before the kill: the writer leaves until it is kept.
        for (let line = 0; line < 5; line += 1) await typeLine();
        writer.destroy();
        const listed = async () =>
          listVersionsResponseSchema.parse(
            await (await browser.fetch(`${running.url}${versionsPath}?limit=100`)).json(),
          ).versions;
        const deadline = Date.now() + 10_000;
        while (!(await listed()).some((version) => version.kind === 'auto')) {
          if (Date.now() > deadline) throw new Error('no automatic version when the writer left');
          await pause(50);
        }
        writer = await join();

        const kept: Kept[] = [];
        const keepNamed = async () => {
          for (let n = 1; ; n += 1) {
            const acknowledgedBefore = acknowledged;
            let res: Response;
            try {
              res = await post(browser, running.url, versionsPath, { name: `Draft ${n}` });
            } catch (error) {
              if (killed) return;
              throw error;
            }
            if (res.status !== 201) throw new Error(`keeping a version answered ${res.status}`);
            const { version } = versionSummaryResponseSchema.parse(await res.json());
            const entry: Kept = { id: version.id, acknowledgedBefore, sentBeforeAnswer: sent };
            kept.push(entry);
            try {
              const read = await browser.fetch(`${running.url}${versionsPath}/${version.id}`);
              if (read.status === 200) {
                entry.lines = linesOf(versionResponseSchema.parse(await read.json()).content);
              }
            } catch (error) {
              if (!killed) throw error;
            }
            await pause(50 + Math.random() * 100);
          }
        };
        const write = async () => {
          for (let line = 1; ; line += 1) {
            // Now and then the writer leaves for a moment: the document unloads and its
            // pending version is kept, while named ones are being kept and the kill may come.
            if (line % 40 === 0 && !(await leaveAndReturn(150))) return;
            if (!(await typeLine())) return;
            // A fast typist's pace, well under the socket's flood limit.
            await pause(10);
          }
        };
        const killer = setTimeout(
          () => {
            killed = true;
            running.child.kill('SIGKILL');
          },
          2500 + Math.random() * 1000,
        );
        await Promise.all([write(), keepNamed()]);
        clearTimeout(killer);
        expect(await running.exited).toBeNull();
        writer.destroy();
        expect(acknowledged).toBeGreaterThan(40);
        expect(kept.length).toBeGreaterThan(3);

        running = await spawnServer(env);
        server = running;
        // Every acknowledged edit is in the document; the line in flight at the kill may be.
        const reread = await browser.fetch(`${running.url}/api/documents/${document.id}`);
        expect(reread.status).toBe(200);
        const lines = linesOf(
          ((await reread.json()) as { document: DocumentRecord }).document.content,
        );
        expect(lines).toEqual(typed(lines.length));
        expect(lines.length).toBeGreaterThanOrEqual(acknowledged);
        expect(lines.length).toBeLessThanOrEqual(sent);

        // Every version listed reads back whole: the document as it was at some moment, which
        // is the start of the document now (nothing written later, nothing lost since).
        const versions: VersionSummary[] = [];
        for (let before: string | null = ''; before !== null;) {
          const page = listVersionsResponseSchema.parse(
            await (
              await browser.fetch(
                `${running.url}${versionsPath}?limit=100${before ? `&before=${before}` : ''}`,
              )
            ).json(),
          );
          versions.push(...page.versions);
          before = page.next;
        }
        expect(versions.some((version) => version.kind === 'auto')).toBe(true);
        const linesOfVersion = new Map<string, string[]>();
        for (const version of versions) {
          const read = await browser.fetch(`${running.url}${versionsPath}/${version.id}`);
          expect(read.status, `version ${version.id}`).toBe(200);
          const body = versionResponseSchema.parse(await read.json());
          expect(body.version).toEqual(version);
          const versionLines = linesOf(body.content);
          expect(versionLines).toEqual(typed(versionLines.length));
          expect(versionLines.length).toBeLessThanOrEqual(lines.length);
          linesOfVersion.set(version.id, versionLines);
        }

        // Every version answered 201 is there, holding what was acknowledged before it was
        // asked for, nothing typed after its answer, and what it read back before the kill.
        for (const entry of kept) {
          const versionLines = linesOfVersion.get(entry.id);
          expect(versionLines, `version ${entry.id}`).toBeDefined();
          expect(versionLines!.length).toBeGreaterThanOrEqual(entry.acknowledgedBefore);
          expect(versionLines!.length).toBeLessThanOrEqual(entry.sentBeforeAnswer);
          if (entry.lines) expect(versionLines).toEqual(entry.lines);
        }

        // Keeping one after the restart works, and it holds the document as it is.
        const after = await post(browser, running.url, versionsPath, { name: 'After the kill' });
        expect(after.status).toBe(201);
        const { version: latest } = versionSummaryResponseSchema.parse(await after.json());
        expect(latest.name).toBe('After the kill');
        const latestRead = await browser.fetch(`${running.url}${versionsPath}/${latest.id}`);
        expect(linesOf(versionResponseSchema.parse(await latestRead.json()).content)).toEqual(
          lines,
        );

        running.child.kill('SIGTERM');
        expect(await running.exited).toBe(0);
      }, 90_000);
    },
  );
}
