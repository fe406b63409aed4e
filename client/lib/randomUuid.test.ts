import { afterEach, describe, expect, it, vi } from 'vitest';
import { documentIdSchema } from '../../common/api/documents.ts';
import { randomUuid } from './randomUuid.ts';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomUuid', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('makes version 4 UUIDs the server takes as document ids', () => {
    const id = randomUuid();
    expect(id).toMatch(V4);
    expect(documentIdSchema.safeParse(id).success).toBe(true);
  });

  it('makes them from random bytes where crypto.randomUUID is missing (plain http)', () => {
    vi.stubGlobal('crypto', {
      getRandomValues: (array: Uint8Array) => array.fill(0xff),
    });
    expect(randomUuid()).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });
});
