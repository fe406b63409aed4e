import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { startS3Server, type TestS3Server } from '../test/s3Server.ts';
import { testUser } from '../test/users.ts';
import type { FileStorage } from './fileStorage.ts';
import { CHUNK_BYTES, PostgresFileStorage } from './postgresFileStorage.ts';
import { S3FileStorage } from './s3FileStorage.ts';

/** Bytes that differ at every offset, so a misplaced chunk shows. */
function bytes(length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) out[i] = (i * 31 + (i >> 8)) % 251;
  return out;
}

/** `data` as a stream of small pieces, as a request body arrives. */
const streamOf = (data: Buffer) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += 10_000) yield data.subarray(i, i + 10_000);
    })(),
  );

async function read(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream as AsyncIterable<Buffer>) parts.push(part);
  return Buffer.concat(parts);
}

/** The same behaviour from every store; `newKey` makes a key the store may write under. */
function storageContract(storage: () => FileStorage, newKey: () => Promise<string>) {
  it('gives back what it stored, across several chunks', async () => {
    const key = await newKey();
    const data = bytes(CHUNK_BYTES * 2 + 12_345);
    expect(await storage().put(key, streamOf(data))).toBe(data.length);
    expect((await read(await storage().get(key))).equals(data)).toBe(true);
  });

  it('serves ranges inside a chunk and across chunk boundaries', async () => {
    const key = await newKey();
    const data = bytes(CHUNK_BYTES * 3);
    await storage().put(key, streamOf(data));
    // s3rver answers `bytes=0-0` with the whole object (it reads the end as `end || Infinity`);
    // S3 itself does not, so that one range is asked of the database store only.
    const firstByte = storage().kind === 'postgres' ? [[0, 0] as const] : [];
    for (const [start, end] of [
      ...firstByte,
      [0, 1],
      [5, 99],
      [CHUNK_BYTES - 10, CHUNK_BYTES + 10],
      [CHUNK_BYTES, CHUNK_BYTES * 2 + 1],
      [data.length - 7, data.length - 1],
    ] as const) {
      const got = await read(await storage().get(key, { start, end }));
      expect(got.equals(data.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  });

  it('deletes, and a deleted key can no longer be read', async () => {
    const key = await newKey();
    await storage().put(key, streamOf(bytes(1000)));
    await storage().delete(key);
    await expect(storage().get(key)).rejects.toThrow(/no stored file/);
    await storage().delete(key);
  });

  it('fails the put when the body fails, without leaving a readable file', async () => {
    const key = await newKey();
    const failing = Readable.from(
      (async function* () {
        yield bytes(CHUNK_BYTES + 1);
        await Promise.resolve();
        throw new Error('the client went away');
      })(),
    );
    await expect(storage().put(key, failing)).rejects.toThrow();
    if (storage().kind === 's3') await expect(storage().get(key)).rejects.toThrow();
  });
}

describeEachDatabase('the database file store', (getDb: () => Database) => {
  let storage: PostgresFileStorage;
  let owner: string;
  beforeEach(async () => {
    storage = new PostgresFileStorage(getDb());
    owner = (await testUser(getDb())).id;
  });
  storageContract(
    () => storage,
    async () => {
      const { rows } = await getDb().query<{ id: string }>(
        `INSERT INTO files (owner_id, name, type) VALUES ($1, 'a.png', 'image/png') RETURNING id`,
        [owner],
      );
      return rows[0]!.id;
    },
  );

  it('holds at most one chunk of a file in a row', async () => {
    const key = (
      await getDb().query<{ id: string }>(
        `INSERT INTO files (owner_id, name, type) VALUES ($1, 'a.png', 'image/png') RETURNING id`,
        [owner],
      )
    ).rows[0]!.id;
    await storage.put(key, streamOf(bytes(CHUNK_BYTES * 4)));
    const { rows } = await getDb().query<{ longest: number; n: string | number }>(
      'SELECT max(length(data)) AS longest, count(*) AS n FROM file_chunks WHERE file_id = $1',
      [key],
    );
    expect(rows[0]).toMatchObject({ longest: CHUNK_BYTES });
    expect(Number(rows[0]!.n)).toBe(4);
  });
});

describe('the S3 file store, against s3rver', () => {
  let s3: TestS3Server;
  let storage: S3FileStorage;
  beforeAll(async () => {
    s3 = await startS3Server();
    storage = new S3FileStorage(s3.config);
  });
  afterAll(async () => {
    storage.close();
    await s3.close();
  });
  storageContract(
    () => storage,
    () => Promise.resolve(randomUUID()),
  );
});
