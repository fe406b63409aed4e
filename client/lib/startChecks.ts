import type { DocumentRecord, DocumentSummary } from '../../common/api/documents.ts';
import type { Backlink, BacklinksResponse } from '../../common/api/links.ts';
import type { MeResponse } from '../../common/api/session.ts';
import type { ResponseSchema } from './api.ts';

// The answers the editor route reads at start (who is signed in, the document list, the open
// document and the documents linking to it), checked without zod: zod and the schemas weigh about 24 KB gzip, as much as the
// rest of the app's own code, and would load before the editor could show. Each check accepts
// what the zod schema of common/api accepts and drops unknown keys as it does; startChecks.test.ts
// holds them to that, and the annotations below to the schemas' types. Every other answer, and
// every error body, is read with zod, loaded on that first need.

/** Thrown when an answer does not have the expected shape. */
export class ShapeError extends Error {
  override name = 'ShapeError';
}

type Check<T> = (value: unknown, path: string) => T;

function fail(path: string, expected: string): never {
  throw new ShapeError(`${path || 'answer'}: expected ${expected}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const string: Check<string> = (value, path) =>
  typeof value === 'string' ? value : fail(path, 'a string');

const integer: Check<number> = (value, path) =>
  Number.isSafeInteger(value) ? (value as number) : fail(path, 'an integer');

function nullable<T>(check: Check<T>): Check<T | null> {
  return (value, path) => (value === null ? null : check(value, path));
}

function optional<T>(check: Check<T>): Check<T | undefined> {
  return (value, path) => (value === undefined ? undefined : check(value, path));
}

function oneOf<const T extends string>(...options: T[]): Check<T> {
  return (value, path) =>
    options.includes(value as T) ? (value as T) : fail(path, options.join(' or '));
}

function arrayOf<T>(check: Check<T>): Check<T[]> {
  return (value, path) =>
    Array.isArray(value)
      ? value.map((item, i) => check(item, `${path}[${i}]`))
      : fail(path, 'a list');
}

/** An object with these keys; other keys are dropped (zod's `z.object`). */
function object<T extends Record<string, unknown>>(shape: {
  [K in keyof T]: Check<T[K]>;
}): Check<T> {
  return (value, path) => {
    if (!isRecord(value)) return fail(path, 'an object');
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(shape) as (keyof T & string)[]) {
      const checked = shape[key](value[key], path ? `${path}.${key}` : key);
      // An optional key that is absent stays absent, as zod leaves it.
      if (checked !== undefined) out[key] = checked;
    }
    return out as T;
  };
}

/** Document content: only its outline, as `documentContentSchema` checks it (loose: keys kept). */
const content: Check<DocumentRecord['content']> = (value, path) => {
  if (!isRecord(value) || value.type !== 'doc') return fail(path, 'a document');
  if (value.content !== undefined && !Array.isArray(value.content)) {
    return fail(`${path}.content`, 'a list');
  }
  return value as DocumentRecord['content'];
};

function schema<T>(check: Check<T>): ResponseSchema<T> {
  return { parse: (data) => check(data, '') };
}

const summaryShape = {
  id: string,
  title: string,
  folder: optional(string),
  version: integer,
  createdAt: string,
  updatedAt: string,
  deletedAt: nullable(string),
  // A shared document's role and owner (docs/PRODUCT.md "Sharing"): the page and the sidebar read them.
  role: optional(oneOf('viewer', 'editor', 'owner')),
  owner: optional(object<{ name: string; email: string }>({ name: string, email: string })),
};

/** `GET /api/me`, as `meResponseSchema`. */
export const meResponseCheck: ResponseSchema<MeResponse> = schema(
  object<MeResponse>({
    user: object<MeResponse['user']>({
      id: string,
      email: nullable(string),
      name: nullable(string),
    }),
    provider: object<MeResponse['provider']>({
      kind: oneOf('embedded', 'hosted'),
      issuer: string,
    }),
  }),
);

/** `GET /api/documents`, as `listDocumentsResponseSchema`. */
export const listDocumentsResponseCheck: ResponseSchema<{ documents: DocumentSummary[] }> = schema(
  object<{ documents: DocumentSummary[] }>({
    documents: arrayOf(object<DocumentSummary>({ ...summaryShape, excerpt: string })),
  }),
);

/** `GET /api/documents/:id`, as `documentResponseSchema`. */
export const documentResponseCheck: ResponseSchema<{ document: DocumentRecord }> = schema(
  object<{ document: DocumentRecord }>({
    document: object<DocumentRecord>({ ...summaryShape, content }),
  }),
);

/** `GET /api/documents/:id/backlinks`, as `backlinksResponseSchema`: read as a document opens. */
export const backlinksResponseCheck: ResponseSchema<BacklinksResponse> = schema(
  object<BacklinksResponse>({
    backlinks: arrayOf(object<Backlink>({ id: string, title: string, links: integer })),
  }),
);
