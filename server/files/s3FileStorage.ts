import { Readable, Transform } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../config.ts';
import type { ByteRange, FileStorage } from './fileStorage.ts';

/** Smallest multipart part S3 accepts; bodies under it go up as one PutObject. */
const PART_BYTES = 5 * 1024 * 1024;

/**
 * Files kept in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2), under
 * `files/<id>`. Uploads stream through multipart parts of 5 MB, downloads stream the object's body.
 * An upload cut off by a crash leaves an unfinished multipart upload, which S3 never shows as an
 * object; a bucket lifecycle rule ("abort incomplete multipart uploads") reclaims its space.
 */
export class S3FileStorage implements FileStorage {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(private readonly config: S3Config) {
    const options: S3ClientConfig = {
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      // The SDK's default CRC32 trailers are not understood by every S3-compatible service
      // (older MinIO, B2); checksums only where the API demands them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    this.client = new S3Client(options);
  }

  private keyOf(id: string): string {
    return `files/${id}`;
  }

  async put(key: string, body: Readable): Promise<number> {
    let written = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        done(null, chunk);
      },
    });
    body.once('error', (error) => counted.destroy(error));
    body.pipe(counted);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.config.bucket, Key: this.keyOf(key), Body: counted },
      partSize: PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    });
    await upload.done();
    return written;
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({
          Bucket: this.config.bucket,
          Key: this.keyOf(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      if (!(object.Body instanceof Readable)) throw new Error('the S3 body is not a Node stream');
      return object.Body;
    } catch (error) {
      if (error instanceof NoSuchKey) throw new Error(`no stored file ${key}`, { cause: error });
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.keyOf(key) }),
    );
  }

  close(): void {
    this.client.destroy();
  }
}
