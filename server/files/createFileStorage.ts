import type { FilesConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { FileStorage } from './fileStorage.ts';
import { PostgresFileStorage } from './postgresFileStorage.ts';

/** The storage the configuration names: the S3 bucket when `S3_BUCKET` is set, else the database. */
export async function createFileStorage(config: FilesConfig, db: Database): Promise<FileStorage> {
  if (!config.s3) return new PostgresFileStorage(db);
  // Loaded only when used: the AWS SDK adds a noticeable moment to every start otherwise.
  const { S3FileStorage } = await import('./s3FileStorage.ts');
  return new S3FileStorage(config.s3);
}
