import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { InvalidRequestError, PayloadTooLargeError } from '../errors.ts';
import type { AppEnv } from '../services.ts';

/**
 * Reads the request body, at most `maxBytes` of it, and keeps it as text for `readJson`; 413
 * `payload_too_large` when the declared length is over, or once the bytes streamed in are.
 * Behind Node's server the body is read straight from the socket's stream: a 100 KB save went
 * through three Web Streams and a TextDecoder before, which cost about as much CPU as writing
 * it to PostgreSQL.
 */
export function limitBody(maxBytes: number, what: string): MiddlewareHandler<AppEnv> {
  const read = bodyReader(maxBytes, what);
  return async (c, next) => {
    await read(c);
    await next();
  };
}

/** What {@link limitBody} does, for a handler that must do something else first. */
export function bodyReader(maxBytes: number, what: string): (c: Context<AppEnv>) => Promise<void> {
  const tooLarge = () => PayloadTooLargeError(`${what} is larger than ${formatBytes(maxBytes)}.`);
  return async (c) => {
    if (Number(c.req.header('Content-Length')) > maxBytes) throw tooLarge();
    const incoming = nodeRequestOf(c);
    const body = incoming
      ? await readNodeBody(incoming, maxBytes)
      : await readStreamBody(c.req.raw.body, maxBytes);
    if (body === null) throw tooLarge();
    c.set('bodyText', body.toString('utf8'));
  };
}

/** The Node request behind `c` (`@hono/node-server`), while nobody has read its body yet. */
function nodeRequestOf(c: Context): IncomingMessage | null {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const untouched = incoming && !incoming.readableEnded && incoming.readableFlowing === null;
  return untouched ? incoming : null;
}

/** The body's bytes, or null as soon as there are more than `maxBytes`. */
function readNodeBody(incoming: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        done();
        incoming.pause();
        resolve(null);
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      done();
      reject(InvalidRequestError('The request body could not be read.', error));
    };
    const onClose = () => {
      done();
      reject(InvalidRequestError('The request body ended early.'));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

/** The same from a Web stream (requests made in process, as tests do). */
async function readStreamBody(
  stream: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Buffer | null> {
  if (!stream) return Buffer.alloc(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
}

/** `\u0000` in JSON text, not preceded by an escaped backslash (`\\u0000` is text). */
const JSON_NUL = /(?<!\\)(?:\\\\)*\\u0000/;

/**
 * Whether JSON text holds U+0000 in a string: PostgreSQL's text and jsonb cannot store it, so
 * a body holding it must be refused as bad input before it reaches the database.
 */
export function jsonHoldsNul(text: string): boolean {
  return text.includes('\\u0000') && JSON_NUL.test(text);
}

/**
 * The request's JSON body checked against `schema`: 400 `invalid_request` naming the first
 * problem, or saying that the body holds a NUL character (U+0000), which no text Inkwell keeps
 * may hold; `allowNul` leaves that to a caller that refuses it per item (a vault batch).
 */
export async function readJson<S extends z.ZodType>(
  c: Context<AppEnv>,
  schema: S,
  { allowNul = false }: { allowNul?: boolean } = {},
): Promise<z.output<S>> {
  const text = c.get('bodyText') ?? (await c.req.text());
  if (!allowNul && jsonHoldsNul(text)) {
    throw InvalidRequestError('Text cannot hold a NUL character (U+0000).');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw InvalidRequestError('The request body is not valid JSON.', error);
  }
  return parseWith(schema, body);
}

/** `value` checked against `schema`: 400 `invalid_request` naming the first problem. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw InvalidRequestError(`${where}${issue?.message ?? 'The request is not valid.'}`);
  }
  return parsed.data;
}

/** `5 MB`, `512 KB`: a limit as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}
