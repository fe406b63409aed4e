import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadedFileSchema } from '../../common/api/files.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { RunningServer } from '../startServer.ts';
import { openTestDatabase } from '../test/databases.ts';
import { pngImage } from '../test/images.ts';
import { startS3Server, type TestS3Server } from '../test/s3Server.ts';
import { signedInUser, startTestServer } from '../test/testServer.ts';

describe('files kept in an S3 bucket (S3_BUCKET set)', () => {
  let s3: TestS3Server;
  let db: Database;
  let server: RunningServer;
  beforeAll(async () => {
    s3 = await startS3Server();
    db = await openTestDatabase('pglite');
    server = await startTestServer(db, {
      files: { ...loadConfig({}).files, maxBytes: 1024 * 1024, s3: s3.config },
    });
  });
  afterAll(async () => {
    await server.close();
    await db.close();
    await s3.close();
  });

  it('stores the upload in the bucket, not the database, and serves it with ranges', async () => {
    expect(server.services.files.kind).toBe('s3');
    const { client } = await signedInUser(server, db);
    const res = await client.request('POST', '/api/files?name=shot.png', {
      body: (await pngImage(640, 480)) as unknown as string,
    });
    expect(res.status).toBe(201);
    const file = uploadedFileSchema.parse(await res.json());
    const { rows } = await db.query('SELECT 1 FROM file_chunks');
    expect(rows).toEqual([]);
    const whole = Buffer.from(await (await client.request('GET', file.url)).arrayBuffer());
    expect(whole.length).toBe(file.bytes);
    const part = await client.request('GET', file.url, { headers: { Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(100, 200));
  });
});
