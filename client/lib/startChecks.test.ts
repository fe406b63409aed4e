import { describe, expect, it } from 'vitest';
import { documentResponseSchema, listDocumentsResponseSchema } from '../../common/api/documents.ts';
import { backlinksResponseSchema } from '../../common/api/links.ts';
import { meResponseSchema } from '../../common/api/session.ts';
import type { ResponseSchema } from './api.ts';
import {
  backlinksResponseCheck,
  documentResponseCheck,
  listDocumentsResponseCheck,
  meResponseCheck,
} from './startChecks.ts';

const summary = {
  id: '6f1c1f52-1d7e-4f43-9a4b-0a0c7b1d2e3f',
  title: 'Notes',
  folder: 'Projects/2026',
  excerpt: 'First words',
  version: 7,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-02T00:00:00.000Z',
  deletedAt: null,
};
/** A document someone shared with the reader: its role and whose it is. */
const shared = { ...summary, role: 'editor', owner: { name: 'Ada', email: 'ada@example.com' } };
const meta = { ...summary } as Partial<typeof summary>;
delete meta.excerpt;
const content = { type: 'doc', content: [{ type: 'paragraph' }], extra: 1 };

const me = {
  user: { id: 'u1', email: 'wren@example.com', name: null },
  provider: { kind: 'embedded', issuer: 'http://localhost/idp' },
};

/** Outcome of a parse: the value, or that it threw. */
function outcome(schema: ResponseSchema<unknown>, value: unknown) {
  try {
    return { ok: true, value: schema.parse(value) };
  } catch {
    return { ok: false };
  }
}

/** Variants of `base`: each field removed, set to null, to a number, to a string, and one key added. */
function variants(base: Record<string, unknown>, wrap: (v: unknown) => unknown): unknown[] {
  const out: unknown[] = [wrap(base), wrap({ ...base, unknownKey: 'x' }), wrap(null), wrap([])];
  for (const key of Object.keys(base)) {
    out.push(wrap(Object.fromEntries(Object.entries(base).filter(([k]) => k !== key))));
    for (const value of [null, 1.5, 3, 'text', {}, []]) out.push(wrap({ ...base, [key]: value }));
  }
  return out;
}

const cases: [string, ResponseSchema<unknown>, ResponseSchema<unknown>, unknown[]][] = [
  [
    'GET /api/me',
    meResponseCheck,
    meResponseSchema,
    [
      ...variants(me, (v) => v),
      ...variants(me.user, (user) => ({ ...me, user })),
      ...variants(me.provider, (provider) => ({ ...me, provider })),
      { ...me, provider: { ...me.provider, kind: 'hosted' } },
      { ...me, provider: { ...me.provider, kind: 'other' } },
    ],
  ],
  [
    'GET /api/documents',
    listDocumentsResponseCheck,
    listDocumentsResponseSchema,
    [
      { documents: [] },
      { documents: {} },
      {},
      ...variants(summary, (row) => ({ documents: [summary, row] })),
      ...variants(shared, (row) => ({ documents: [summary, row] })),
      ...variants(shared.owner, (owner) => ({ documents: [{ ...shared, owner }] })),
      { documents: [{ ...shared, role: 'admin' }] },
      { documents: [{ ...summary, version: 2 ** 60 }] },
    ],
  ],
  [
    'GET /api/documents/:id',
    documentResponseCheck,
    documentResponseSchema,
    [
      ...variants({ ...meta, content }, (document) => ({ document })),
      ...variants({ ...meta, role: 'viewer', owner: shared.owner, content }, (document) => ({
        document,
      })),
      { document: { ...meta, content: { type: 'doc' } } },
      { document: { ...meta, content: { type: 'paragraph' } } },
      { document: { ...meta, content: { type: 'doc', content: {} } } },
      { document: { ...meta, content: 'doc' } },
    ],
  ],
  [
    'GET /api/documents/:id/backlinks',
    backlinksResponseCheck,
    backlinksResponseSchema,
    [
      { backlinks: [] },
      { backlinks: {} },
      {},
      ...variants({ id: 'd1', title: 'Links here', links: 2 }, (row) => ({ backlinks: [row] })),
      { backlinks: [{ id: 'd1', title: 'x', links: 2 ** 60 }] },
    ],
  ],
];

describe('the checks of the start answers', () => {
  for (const [name, check, schema, values] of cases) {
    it(`accept, reject and strip what the zod schema does, for ${name}`, () => {
      for (const value of values) {
        expect(outcome(check, value), JSON.stringify(value)).toEqual(outcome(schema, value));
      }
    });
  }

  it('name the field that does not fit', () => {
    expect(() => meResponseCheck.parse({ ...me, user: { ...me.user, id: 3 } })).toThrow(
      /user\.id: expected a string/,
    );
  });
});
