import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { InvalidRequestError, PayloadTooLargeError } from '../errors.ts';

/** 413 `payload_too_large` for a body over `maxBytes`, checked while it streams in. */
export function limitBody(maxBytes: number, what: string): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw PayloadTooLargeError(`${what} is larger than ${formatBytes(maxBytes)}.`);
    },
  });
}

/** The request's JSON body checked against `schema`: 400 `invalid_request` naming the first problem. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let body: unknown;
  try {
    body = await c.req.json();
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
