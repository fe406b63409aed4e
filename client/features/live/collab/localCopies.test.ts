import { describe, expect, it } from 'vitest';
import {
  forgetLocalCopies,
  forgetLocalCopy,
  isLocalCopyName,
  localCopyName,
} from './localCopies.ts';

/** An IDBFactory holding database names, enough for forgetLocalCopies. */
function fakeFactory(names: string[]) {
  const held = new Set(names);
  const factory = {
    databases: async () => [...held].map((name) => ({ name, version: 1 })),
    deleteDatabase: (name: string) => {
      const request = {} as IDBOpenDBRequest;
      queueMicrotask(() => {
        held.delete(name);
        request.onsuccess?.call(request, new Event('success'));
      });
      return request;
    },
  };
  return { factory: factory as unknown as IDBFactory, held };
}

describe('local copies of shared documents', () => {
  it('are named per person and document', () => {
    expect(localCopyName('u1', 'd1')).not.toBe(localCopyName('u2', 'd1'));
    expect(isLocalCopyName(localCopyName('u1', 'd1'))).toBe(true);
    expect(isLocalCopyName('inkwell')).toBe(false);
  });

  it('are all deleted at sign-out, and nothing else is', async () => {
    const { factory, held } = fakeFactory([
      localCopyName('u1', 'd1'),
      localCopyName('u2', 'd2'),
      'inkwell',
    ]);
    await forgetLocalCopies(factory);
    expect([...held]).toEqual(['inkwell']);
  });

  it("deletes one person's copy of a document they lost, and no one else's", async () => {
    const { factory, held } = fakeFactory([
      localCopyName('u1', 'd1'),
      localCopyName('u1', 'd2'),
      localCopyName('u2', 'd1'),
      'inkwell',
    ]);
    await forgetLocalCopy('u1', 'd1', factory);
    expect([...held]).toEqual([localCopyName('u1', 'd2'), localCopyName('u2', 'd1'), 'inkwell']);
  });
});
