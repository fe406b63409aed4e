/**
 * The baseline of the live-collaboration benchmarks, run as its own process:
 * `node --import tsx bench/bareCollabServer.ts <folder of JSON documents>`.
 *
 * Hocuspocus 4 as a library behind a `ws` server, as Inkwell runs it, and nothing else: no
 * session or access check, no schema check of updates, no persistence (a document lives in memory
 * while it is open). A document named `<key>:<anything>` starts as `<folder>/<key>.json`,
 * converted as Inkwell's server converts a stored document; any other name starts empty. What
 * Inkwell spends beyond this is the price of admission, checking and keeping every update on disk.
 *
 * `/echo` is a bare WebSocket echo: each message is sent straight back, the floor of a round trip.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Hocuspocus } from '@hocuspocus/server';
import { WebSocketServer } from 'ws';
import type * as Y from 'yjs';
import type { DocumentContent } from '../common/api/documents.ts';
import { yDocFromContent } from '../server/collab/yjsContent.ts';

const [jsonDir] = process.argv.slice(2);
if (!jsonDir) {
  process.stderr.write('usage: bareCollabServer.ts <folder of JSON documents>\n');
  process.exit(2);
}
const contents = new Map<string, DocumentContent>();
function contentOf(key: string): DocumentContent {
  let content = contents.get(key);
  if (!content) {
    content = JSON.parse(readFileSync(join(jsonDir!, `${key}.json`), 'utf8')) as DocumentContent;
    contents.set(key, content);
  }
  return content;
}

const hocuspocus = new Hocuspocus({
  quiet: true,
  onLoadDocument: ({ documentName }): Promise<Y.Doc | undefined> => {
    const key = /^([\w-]+):/.exec(documentName)?.[1];
    return Promise.resolve(key ? yDocFromContent(contentOf(key)) : undefined);
  },
});
const sockets = new WebSocketServer({ noServer: true });
const server = createServer((_req, res) => res.writeHead(404).end());
server.on('upgrade', (req, socket, head) => {
  sockets.handleUpgrade(req, socket, head, (ws) => {
    if (req.url === '/echo') {
      ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const connection = hocuspocus.handleConnection(
      ws,
      new Request(`http://${req.headers.host}${req.url}`, { headers }),
    );
    // Hocuspocus 4 leaves the socket's events to its host, as Inkwell's route hands them over.
    ws.on('message', (data: Buffer) => connection.handleMessage(new Uint8Array(data)));
    ws.on('close', (code, reason) => connection.handleClose({ code, reason: reason.toString() }));
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.once('SIGTERM', () => {
  sockets.clients.forEach((ws) => ws.terminate());
  server.close(() => process.exit(0));
});
