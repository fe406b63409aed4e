/**
 * The `autosave` benchmark's baseline, run as its own process:
 * `node --import tsx bench/bareSaveServer.ts <PGlite folder | postgres:// URL>`.
 *
 * A plain Node HTTP server whose `PATCH /api/documents/:id` reads the body, parses it and writes
 * the content into the row through the same database layer Inkwell uses (same driver, same pool),
 * and nothing else: no session, no CSRF check, no schema, no version check, no validation. What
 * Inkwell spends beyond this is the price of its route.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase } from '../server/db/database.ts';

const PATH = /^\/api\/documents\/([0-9a-f-]{36})$/;

const target = process.argv[2];
if (!target) {
  process.stderr.write('usage: bareSaveServer.ts <PGlite folder | postgres:// URL>\n');
  process.exit(2);
}
const db = await openDatabase(
  /^postgres(ql)?:\/\//.test(target)
    ? { kind: 'postgres', url: target }
    : { kind: 'pglite', dataDir: target },
);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function save(id: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = JSON.parse(await readBody(req)) as { content?: unknown };
  // Stringified again, as Inkwell's store does: both drivers take jsonb as text.
  const { rows } = await db.query<{ version: number; updated_at: Date }>(
    `UPDATE documents SET content = $1::jsonb, version = version + 1, updated_at = now()
      WHERE id = $2 RETURNING version, updated_at`,
    [JSON.stringify(body.content), id],
  );
  const row = rows[0];
  if (!row) {
    res.writeHead(404).end();
    return;
  }
  const answer = JSON.stringify({ id, version: row.version, updatedAt: row.updated_at });
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(answer);
}

const server = createServer((req, res) => {
  const id = PATH.exec(req.url ?? '')?.[1];
  if (req.method !== 'PATCH' || !id) {
    res.writeHead(404).end();
    return;
  }
  save(id, req, res).catch((error: unknown) => {
    process.stderr.write(`save failed: ${String(error)}\n`);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`bare save server listening on http://127.0.0.1:${port}`);
});

process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => {
    void db.close().then(() => process.exit(0));
  });
});
