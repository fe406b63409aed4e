import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/** A static file server started by `serveStatic`. */
export interface StaticServer {
  /** Its base URL, such as `http://127.0.0.1:41234`. */
  url: string;
  /** Stops listening. */
  close(): Promise<void>;
}

/**
 * Serves the files of `dir` on a free port of 127.0.0.1. Paths that name no file get `fallback`
 * (a single-page app's index.html) when given, else 404.
 */
export async function serveStatic(dir: string, fallback?: string): Promise<StaticServer> {
  const root = normalize(dir + sep);
  const server = createServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      let file = normalize(join(root, path));
      if (!file.startsWith(root)) file = root;
      const found = await stat(file).then(
        (s) => s.isFile(),
        () => false,
      );
      if (!found) {
        if (fallback === undefined) {
          res.writeHead(404).end();
          return;
        }
        file = join(root, fallback);
      }
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      createReadStream(file).pipe(res);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
