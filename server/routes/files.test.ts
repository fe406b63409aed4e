import { request as httpRequest } from 'node:http';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE, errorBodySchema } from '../../common/api/errors.ts';
import { uploadedFileSchema, type UploadedFile } from '../../common/api/files.ts';
import { loadConfig } from '../config.ts';
import { sweepFiles } from '../files/sweepFiles.ts';
import { sessionCookieName } from '../middleware/session.ts';
import { bombPng, jpegWithExif, photo, pngImage, transparentPng } from '../test/images.ts';
import { describeWithServer, signedInUser, TestClient } from '../test/testServer.ts';

const MAX_BYTES = 1024 * 1024;

/** Sends `bytes` as an upload, as the editor does. */
function upload(client: TestClient, bytes: Buffer | string, name = 'picture.png') {
  return client.request('POST', `/api/files?name=${encodeURIComponent(name)}`, {
    body: bytes as unknown as string,
    headers: { 'Content-Type': 'application/octet-stream' },
  });
}

async function uploaded(client: TestClient, bytes: Buffer, name?: string): Promise<UploadedFile> {
  const res = await upload(client, bytes, name);
  expect(res.status, await res.clone().text()).toBe(201);
  return uploadedFileSchema.parse(await res.json());
}

async function errorOf(res: Response) {
  return errorBodySchema.parse(await res.json()).error;
}

/** How far this process's memory (the server runs in it) rose while `work` ran, sampled often. */
async function peakMemoryRise<T>(work: () => Promise<T>): Promise<{ result: T; rise: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const timer = setInterval(sample, 5);
  try {
    const result = await work();
    sample();
    return { result, rise: peak - start };
  } finally {
    clearInterval(timer);
  }
}

describeWithServer(
  'uploading and serving files',
  (context) => {
    let client: TestClient;
    let png: Buffer;
    beforeAll(async () => {
      ({ client } = await signedInUser(context().server, context().db));
      png = await pngImage(300, 200);
    });

    it('stores an image and serves it back to its uploader with its real type', async () => {
      const file = await uploaded(client, png, 'diagram.png');
      expect(file).toMatchObject({
        url: `/files/${file.id}`,
        width: 300,
        height: 200,
        type: 'image/png',
        name: 'diagram.png',
      });
      const res = await client.request('GET', file.url);
      expect(res.status).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.length).toBe(file.bytes);
      expect(res.headers.get('Content-Type')).toBe('image/png');
      expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(res.headers.get('Cache-Control')).toBe('private, max-age=31536000, immutable');
      expect(res.headers.get('Content-Disposition')).toBe(
        `inline; filename="diagram.png"; filename*=UTF-8''diagram.png`,
      );
      expect(res.headers.get('ETag')).toMatch(/^"[0-9a-f]{64}"$/);
      expect((await sharp(body).metadata()).format).toBe('png');
    });

    it('strips EXIF and GPS and turns the photo as its orientation says', async () => {
      const original = await jpegWithExif(300, 200);
      const before = await sharp(original).metadata();
      expect(before.orientation).toBe(6);
      expect(before.exif).toBeDefined();
      const file = await uploaded(client, original, 'holiday.jpg');
      expect(file).toMatchObject({ width: 200, height: 300, type: 'image/jpeg' });
      const body = Buffer.from(await (await client.request('GET', file.url)).arrayBuffer());
      const after = await sharp(body).metadata();
      expect(after.exif).toBeUndefined();
      expect(after.orientation).toBeUndefined();
      expect(body.includes('Secret Artist')).toBe(false);
    });

    it('scales a large image to 2,000 pixels on its long side', async () => {
      const file = await uploaded(client, await photo(3000, 1000, 60));
      expect(file).toMatchObject({ width: 2000, height: 667 });
    });

    it('accepts GIF, WebP and AVIF, each kept in its own format', async () => {
      const source = sharp(png);
      for (const [type, bytes] of [
        ['image/gif', await source.clone().gif().toBuffer()],
        ['image/webp', await source.clone().webp().toBuffer()],
        ['image/avif', await source.clone().avif({ effort: 0 }).toBuffer()],
      ] as const) {
        const file = await uploaded(client, bytes, 'picture');
        expect(file, type).toMatchObject({ type, width: 300, height: 200 });
        const res = await client.request('GET', file.url);
        expect(res.headers.get('Content-Type')).toBe(type);
        const format = (await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format;
        expect(format).toBe(type === 'image/avif' ? 'heif' : type.slice('image/'.length));
      }
    });

    it('refuses an HTML page named .png, whatever the header says', async () => {
      const res = await client.request('POST', '/api/files?name=cat.png', {
        body: '<!doctype html><html><script>alert(1)</script></html>',
        headers: { 'Content-Type': 'image/png' },
      });
      expect(res.status).toBe(415);
      expect(await errorOf(res)).toEqual({
        code: 'unsupported_file_type',
        message: 'Only PNG, JPEG, GIF, WebP and AVIF images can be uploaded.',
      });
    });

    it('refuses an SVG with a script', async () => {
      const svg =
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>';
      const res = await upload(client, svg, 'logo.svg');
      expect(res.status).toBe(415);
      expect((await errorOf(res)).code).toBe('unsupported_file_type');
    });

    it('keeps only the image of a PNG that is also an HTML page', async () => {
      const polyglot = Buffer.concat([png, Buffer.from('<html><script>alert(1)</script></html>')]);
      const file = await uploaded(client, polyglot, 'polyglot.html');
      expect(file.name).toBe('polyglot.png');
      const body = Buffer.from(await (await client.request('GET', file.url)).arrayBuffer());
      expect(body.includes('<script')).toBe(false);
      expect(body.includes('<html')).toBe(false);
    });

    it('refuses a truncated image with 422 and stores nothing', async () => {
      const image = await photo(400, 300);
      const res = await upload(client, image.subarray(0, Math.floor(image.length / 2)), 'cut.jpg');
      expect(res.status).toBe(422);
      expect((await errorOf(res)).code).toBe('invalid_image');
      const { rows } = await context().db.query(`SELECT id FROM files WHERE name = 'cut.jpg'`);
      expect(rows).toEqual([]);
    });

    it('refuses a decompression bomb from its header, quickly', async () => {
      const bomb = bombPng(50_000, 50_000);
      expect(bomb.length).toBeLessThan(2000);
      const started = performance.now();
      const res = await upload(client, bomb, 'bomb.png');
      expect(res.status).toBe(422);
      expect(await errorOf(res)).toEqual({
        code: 'invalid_image',
        message:
          'The image is too large: 50,000 × 50,000 pixels; at most 120 million are accepted.',
      });
      expect(performance.now() - started).toBeLessThan(2000);
    });

    it('refuses an interlaced PNG of 14,000 × 14,000 from its header, without decoding it', async () => {
      // Valid and whole: decoded, it would take about 800 MB and seconds.
      const bomb = transparentPng(14_000, 14_000, true);
      expect(bomb.length).toBeLessThan(MAX_BYTES);
      const { result: res, rise } = await peakMemoryRise(() => upload(client, bomb, 'wall.png'));
      expect(res.status).toBe(422);
      expect(await errorOf(res)).toEqual({
        code: 'invalid_image',
        message:
          'The image is too large: 14,000 × 14,000 pixels. An interlaced PNG is decoded whole, so it may have at most 50 million pixels.',
      });
      expect(rise).toBeLessThan(100 * 1024 * 1024);
    });

    it('accepts a 48-megapixel phone photo, baseline or progressive', async () => {
      const image = sharp({
        create: { width: 8064, height: 6048, channels: 3, background: '#7a8c99' },
      });
      for (const progressive of [false, true]) {
        const jpeg = await image.clone().jpeg({ progressive }).toBuffer();
        const file = await uploaded(client, jpeg, 'phone.jpg');
        expect(file, `progressive: ${progressive}`).toMatchObject({ width: 2000, height: 1500 });
      }
    });

    it('refuses an empty body', async () => {
      const res = await upload(client, Buffer.alloc(0));
      expect(res.status).toBe(400);
    });

    it('serves a name with path parts and control characters as a safe name', async () => {
      const file = await uploaded(client, png, '../../etc/pa\u0000ss\r\nwd\u202egpj.exe');
      expect(file.name).toBe('passwdgpj.png');
      const windows = await uploaded(client, png, 'C:\\Users\\ada\\"Résumé"; x=1.png');
      expect(windows.name).toBe('"Résumé"; x=1.png');
      const res = await client.request('GET', windows.url);
      await res.body?.cancel();
      expect(res.headers.get('Content-Disposition')).toBe(
        `inline; filename="_R_sum__; x=1.png"; filename*=UTF-8''%22R%C3%A9sum%C3%A9%22%3B%20x%3D1.png`,
      );
    });

    it('answers 404 to another person, to a signed-out visitor and to a malformed id', async () => {
      const file = await uploaded(client, png);
      const other = (await signedInUser(context().server, context().db, 'Eve')).client;
      const stranger = await other.request('GET', file.url);
      expect(stranger.status).toBe(404);
      expect((await errorOf(stranger)).code).toBe('not_found');
      const signedOut = await new TestClient(context().server, undefined).request('GET', file.url);
      expect(signedOut.status).toBe(404);
      expect((await client.request('GET', '/files/not-an-id')).status).toBe(404);
      expect(
        (await client.request('GET', '/files/00000000-0000-4000-8000-000000000000')).status,
      ).toBe(404);
    });

    it('answers 404 for a file whose upload has not finished', async () => {
      const { rows } = await context().db.query<{ id: string; owner_id: string }>(
        `INSERT INTO files (owner_id, name, type)
         SELECT owner_id, 'half.png', 'image/png' FROM files LIMIT 1 RETURNING id, owner_id`,
      );
      const res = await client.request('GET', `/files/${rows[0]!.id}`);
      expect(res.status).toBe(404);
    });

    it('serves byte ranges, a suffix, and 416 past the end', async () => {
      const file = await uploaded(client, png);
      const whole = Buffer.from(await (await client.request('GET', file.url)).arrayBuffer());
      const part = await client.request('GET', file.url, { headers: { Range: 'bytes=10-19' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('Content-Range')).toBe(`bytes 10-19/${file.bytes}`);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(10, 20));
      const tail = await client.request('GET', file.url, { headers: { Range: 'bytes=-5' } });
      expect(tail.status).toBe(206);
      expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 5));
      const past = await client.request('GET', file.url, {
        headers: { Range: `bytes=${file.bytes}-` },
      });
      expect(past.status).toBe(416);
      expect(past.headers.get('Content-Range')).toBe(`bytes */${file.bytes}`);
    });

    it('answers 304 when the browser has the same copy', async () => {
      const file = await uploaded(client, png);
      const first = await client.request('GET', file.url);
      await first.body?.cancel();
      const again = await client.request('GET', file.url, {
        headers: { 'If-None-Match': first.headers.get('ETag')! },
      });
      expect(again.status).toBe(304);
    });

    it('removes a file once the only document showing it is deleted forever', async () => {
      const file = await uploaded(client, png);
      const created = await client.request('POST', '/api/documents?echo=0', {
        json: {
          title: 'With a picture',
          content: { type: 'doc', content: [{ type: 'image', attrs: { src: file.url } }] },
        },
      });
      expect(created.status).toBe(201);
      const { document } = (await created.json()) as { document: { id: string } };
      // Older than the hour the sweep gives every upload.
      await context().db.query(
        `UPDATE files SET created_at = now() - interval '2 hours' WHERE id = $1`,
        [file.id],
      );
      expect((await client.request('DELETE', `/api/documents/${document.id}`)).status).toBe(204);
      await sweepFiles(context().db, context().server.services.files);
      const inTrash = await client.request('GET', file.url);
      await inTrash.body?.cancel();
      expect(inTrash.status).toBe(200);
      const purged = await client.request('DELETE', `/api/documents/${document.id}/permanent`);
      expect(purged.status).toBe(204);
      await expect
        .poll(async () => (await client.request('GET', file.url)).status, { timeout: 5000 })
        .toBe(404);
    });

    it('keeps a file that a vault embed (![[diagram.png]]) shows, until its document goes', async () => {
      const file = await uploaded(client, png, 'diagram.png');
      const embed = {
        type: 'wikilink',
        attrs: { target: 'diagram.png', fragment: '', alias: null, embed: true, src: file.url },
      };
      const created = await client.request('POST', '/api/documents?echo=0', {
        json: {
          title: 'With an embed',
          content: { type: 'doc', content: [{ type: 'paragraph', content: [embed] }] },
        },
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const { document } = (await created.json()) as { document: { id: string } };
      const saved = await client.request('GET', `/api/documents/${document.id}`);
      expect(JSON.stringify(await saved.json())).toContain(file.url);
      await context().db.query(
        `UPDATE files SET created_at = now() - interval '2 hours' WHERE id = $1`,
        [file.id],
      );
      expect(await sweepFiles(context().db, context().server.services.files)).toBe(0);
      const kept = await client.request('GET', file.url);
      await kept.body?.cancel();
      expect(kept.status).toBe(200);
      expect((await client.request('DELETE', `/api/documents/${document.id}`)).status).toBe(204);
      const purged = await client.request('DELETE', `/api/documents/${document.id}/permanent`);
      expect(purged.status).toBe(204);
      await expect
        .poll(async () => (await client.request('GET', file.url)).status, { timeout: 5000 })
        .toBe(404);
    });

    it('answers 413 to a declared length over the limit before the body is sent', async () => {
      const url = new URL(context().server.url);
      const { status, sent } = await new Promise<{ status: number; sent: number }>(
        (resolve, reject) => {
          let sent = 0;
          const req = httpRequest({
            host: url.hostname,
            port: url.port,
            method: 'POST',
            path: '/api/files',
            headers: {
              Cookie: `${sessionCookieName(context().server.url)}=${client.token}`,
              [CSRF_HEADER]: CSRF_HEADER_VALUE,
              Origin: url.origin,
              'Content-Length': String(MAX_BYTES * 50),
            },
          });
          req.on('response', (res) => {
            res.resume();
            resolve({ status: res.statusCode ?? 0, sent });
            req.destroy();
          });
          req.on('error', (error) => (sent > 0 ? undefined : reject(error)));
          // A trickle: the answer must come long before the 50 MB could have been sent.
          const chunk = Buffer.alloc(16 * 1024);
          const timer = setInterval(() => {
            if (req.destroyed) return clearInterval(timer);
            sent += chunk.length;
            req.write(chunk);
          }, 20);
        },
      );
      expect(status).toBe(413);
      expect(sent).toBeLessThan(MAX_BYTES);
    });

    it('answers 413 once a body without a length grows past the limit', async () => {
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.enqueue(new Uint8Array(64 * 1024));
        },
      });
      const res = await fetch(new URL('/api/files', context().server.url), {
        method: 'POST',
        body,
        duplex: 'half',
        headers: {
          Cookie: `${sessionCookieName(context().server.url)}=${client.token}`,
          [CSRF_HEADER]: CSRF_HEADER_VALUE,
          Origin: new URL(context().server.url).origin,
        },
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await errorOf(res)).toEqual({
        code: 'payload_too_large',
        message: 'The file is larger than 1 MB.',
      });
    });
  },
  { files: { ...loadConfig({}).files, maxBytes: MAX_BYTES } },
);

describeWithServer(
  'limits on the uploads of one person',
  (context) => {
    let png: Buffer;
    beforeAll(async () => {
      png = await pngImage(60, 40);
    });

    /** An upload whose body stays open until `finish` is called, as a slow connection sends it. */
    function slowUpload(client: TestClient) {
      let finish!: () => void;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(png.subarray(0, 100));
          finish = () => {
            controller.enqueue(png.subarray(100));
            controller.close();
          };
        },
      });
      const response = fetch(new URL('/api/files?name=slow.png', context().server.url), {
        method: 'POST',
        body,
        duplex: 'half',
        headers: {
          Cookie: `${sessionCookieName(context().server.url)}=${client.token}`,
          [CSRF_HEADER]: CSRF_HEADER_VALUE,
          Origin: new URL(context().server.url).origin,
        },
      } as RequestInit);
      return { response, finish: () => finish() };
    }

    /** Uploads of `userId` counted this minute. */
    async function countedUploads(userId: string): Promise<number> {
      const { rows } = await context().db.query<{ hits: number }>(
        'SELECT hits FROM rate_limits WHERE key = $1',
        [`files:user:${userId}`],
      );
      return rows[0]?.hits ?? 0;
    }

    it('answers 429 with Retry-After to the upload past the rate of a minute, and to no one else', async () => {
      const { client } = await signedInUser(context().server, context().db);
      for (let i = 0; i < 3; i += 1) await uploaded(client, png);
      const res = await upload(client, png);
      expect(res.status).toBe(429);
      const wait = Number(res.headers.get('Retry-After'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
      expect(await errorOf(res)).toEqual({
        code: 'rate_limited',
        message: `Too many uploads: at most 3 a minute. Try again in ${wait === 1 ? '1 second' : `${wait} seconds`}.`,
      });
      const { client: other } = await signedInUser(context().server, context().db, 'Grace');
      await uploaded(other, png);
    });

    it('answers 429 to an upload past those one person may have under way', async () => {
      const { user, client } = await signedInUser(context().server, context().db);
      const slow = [slowUpload(client), slowUpload(client)];
      await expect.poll(() => countedUploads(user.id)).toBe(2);
      const res = await upload(client, png);
      expect(res.status).toBe(429);
      expect(res.headers.get('Retry-After')).toBe('5');
      expect(await errorOf(res)).toEqual({
        code: 'rate_limited',
        message:
          'You have 2 uploads under way already. Try again in 5 seconds, once one has finished.',
      });
      for (const { finish } of slow) finish();
      for (const { response } of slow) expect((await response).status).toBe(201);
      // Their places are free again, and the refused upload counted for nothing.
      await uploaded(client, png);
      expect(await countedUploads(user.id)).toBe(3);
    });
  },
  { files: { ...loadConfig({}).files, uploadsPerMinute: 3, uploadsAtOnce: 2 } },
);
