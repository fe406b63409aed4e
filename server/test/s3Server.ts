import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../config.ts';

/** An S3-compatible server on loopback for the S3 store's tests, with one empty bucket. */
export interface TestS3Server {
  /** The settings that point Inkwell at its bucket, as S3_* variables would. */
  config: S3Config;
  /** Stops it and deletes its folder. */
  close(): Promise<void>;
}

/** Starts s3rver on a random loopback port over a fresh temporary folder. */
export async function startS3Server(): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'inkwell-s3-'));
  const bucket = 'inkwell-test';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    config: {
      bucket,
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      // s3rver's fixed pair; it checks signatures as S3 does.
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    },
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
