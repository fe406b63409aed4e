import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadedFileSchema, type UploadedFile } from '../../common/api/files.ts';
import type { Database } from '../db/database.ts';
import { openPglite } from '../db/pglite.ts';
import { freePort } from '../test/freePort.ts';
import type { TestBrowser } from '../test/hostedProvider.ts';
import { noisePng } from '../test/images.ts';
import { spawnServer, type ServerProcess } from '../test/serverProcess.ts';
import { signedInBrowser } from '../test/signIn.ts';
import { PostgresFileStorage } from './postgresFileStorage.ts';
import { sweepFiles } from './sweepFiles.ts';

const API_HEADERS = { 'X-Inkwell-Request': '1' };

/** Uploads `image` and, once it is stored, saves a document showing it, as the editor does. */
async function uploadAndShow(browser: TestBrowser, url: string, image: Uint8Array<ArrayBuffer>) {
  const res = await browser.fetch(`${url}/api/files?name=shot.png`, {
    method: 'POST',
    headers: { ...API_HEADERS, Origin: url },
    body: image,
  });
  if (res.status !== 201) throw new Error(`upload failed with ${res.status}: ${await res.text()}`);
  const file = uploadedFileSchema.parse(await res.json());
  const saved = await browser.fetch(`${url}/api/documents`, {
    method: 'POST',
    headers: { ...API_HEADERS, Origin: url, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      title: 'Shot',
      content: { type: 'doc', content: [{ type: 'image', attrs: { src: file.url } }] },
    }),
  });
  if (saved.status !== 201) throw new Error(`save failed with ${saved.status}`);
  return file;
}

/**
 * What must never exist: a file that a document references, or that is marked ready, whose
 * stored bytes are not whole (their size or SHA-256 differs from the row's).
 */
async function halfWrittenFiles(db: Database): Promise<unknown[]> {
  const { rows } = await db.query(`
    WITH referenced AS (
      SELECT DISTINCT (regexp_matches(content::text, '/files/([0-9a-f-]{36})', 'g'))[1]::uuid AS id
        FROM documents
    ), stored AS (
      SELECT file_id, sum(length(data)) AS bytes,
             encode(sha256(string_agg(data, ''::bytea ORDER BY start)), 'hex') AS sha256
        FROM file_chunks GROUP BY file_id
    ), claimed AS (
      SELECT id FROM referenced UNION SELECT id FROM files WHERE status = 'ready'
    )
    SELECT c.id, f.status FROM claimed c
      LEFT JOIN files f ON f.id = c.id
      LEFT JOIN stored s ON s.file_id = c.id
     WHERE f.status IS DISTINCT FROM 'ready' OR s.bytes IS DISTINCT FROM f.bytes
        OR s.sha256 IS DISTINCT FROM f.sha256`);
  return rows;
}

describe('a server killed during uploads', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'inkwell-upload-kill-'));
  });
  afterAll(async () => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('leaves no half-written file that is ready or that a document references', async () => {
    server = await spawnServer({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      // Uploads back to back until the kill: a 429 would end them before it.
      FILE_UPLOADS_PER_MINUTE: '100000',
      FILE_UPLOADS_AT_ONCE: '10',
    });
    const { url } = server;
    const browser = await signedInBrowser(server);
    // Noise compresses to almost nothing less, so storing each takes several chunks and a while.
    const image = new Uint8Array(await noisePng(1800, 1800));
    const acknowledged: UploadedFile[] = [await uploadAndShow(browser, url, image)];

    // One upload stays half sent until the end; the others run back to back, so the kill lands
    // in the middle of receiving, re-encoding or storing one of them.
    let sent = false;
    const halfSent = browser
      .fetch(`${url}/api/files?name=half.png`, {
        method: 'POST',
        headers: { ...API_HEADERS, Origin: url },
        body: new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent) return new Promise(() => undefined);
            sent = true;
            controller.enqueue(image.subarray(0, image.length >> 1));
          },
        }),
        duplex: 'half',
      } as RequestInit)
      .catch(() => undefined);
    const killer = setTimeout(() => server?.child.kill('SIGKILL'), 3000 + Math.random() * 1000);
    const loop = async () => {
      for (;;) {
        try {
          acknowledged.push(await uploadAndShow(browser, url, image));
        } catch {
          return;
        }
      }
    };
    await Promise.all([loop(), loop(), loop()]);
    clearTimeout(killer);
    expect(await server.exited).toBeNull();
    await halfSent;

    const db = await openPglite(dataDir);
    try {
      expect(await halfWrittenFiles(db)).toEqual([]);
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM files WHERE status = 'ready'`,
      );
      const ready = new Set(rows.map((row) => row.id));
      for (const file of acknowledged) expect(ready.has(file.id)).toBe(true);
      // Whatever the crash cut off is pending, and the sweep takes it with its bytes.
      await sweepFiles(db, new PostgresFileStorage(db), 0);
      const left = await db.query(
        `SELECT 1 FROM files WHERE status <> 'ready'
         UNION ALL SELECT 1 FROM file_chunks c WHERE NOT EXISTS
           (SELECT 1 FROM files f WHERE f.id = c.file_id AND f.status = 'ready')`,
      );
      expect(left.rows).toEqual([]);
      expect(await halfWrittenFiles(db)).toEqual([]);
    } finally {
      await db.close();
    }
  }, 90_000);
});
