/**
 * The `uploads` benchmark's baseline, run as its own process:
 * `node --import tsx bench/bareUploadServer.ts <PGlite folder> <owner id>`.
 *
 * A plain Node HTTP server whose `POST /upload` writes a `files` row and streams the body into the
 * same store Inkwell uses (the database's `file_chunks`), then marks the row ready, and nothing
 * else: no session, no CSRF check, no size limit, no sniffing, no decoding or re-encoding. What
 * Inkwell spends beyond this is the price of handling an image safely.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase } from '../server/db/database.ts';
import { FileStore } from '../server/files/fileStore.ts';
import { PostgresFileStorage } from '../server/files/postgresFileStorage.ts';

const [dataDir, ownerId] = process.argv.slice(2);
if (!dataDir || !ownerId) {
  process.stderr.write('usage: bareUploadServer.ts <PGlite folder> <owner id>\n');
  process.exit(2);
}
const db = await openDatabase({ kind: 'pglite', dataDir });
const storage = new PostgresFileStorage(db);
const files = new FileStore(db);

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/upload') {
    res.writeHead(404).end();
    return;
  }
  void (async () => {
    const id = await files.createPending(ownerId, 'photo.jpg', 'image/jpeg');
    const bytes = await storage.put(id, req);
    await files.markReady(id, { bytes, width: 0, height: 0, sha256: '' });
    res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id, bytes }));
  })().catch((error: unknown) => {
    process.stderr.write(`upload failed: ${String(error)}\n`);
    res.writeHead(500).end();
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  void db.close().then(() => process.exit(0));
});
