import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { createLogger } from '../logger.ts';
import { VersionKeeper } from './versionKeeper.ts';
import type { KeepRequest, VersionStore } from './versionStore.ts';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** A keeper over a store that records what it was asked to keep (the store has its own tests). */
function keeper() {
  const kept: { documentId: string; request: KeepRequest }[] = [];
  const store = {
    keep: (documentId: string, _doc: Y.Doc, request: KeepRequest) => {
      kept.push({ documentId, request });
      return Promise.resolve(null);
    },
  } as unknown as VersionStore;
  const timing = { pauseMs: 1_000, everyMs: 10_000 };
  return { kept, keeper: new VersionKeeper(store, createLogger('silent'), timing) };
}

describe('when versions are kept', () => {
  it('after a pause in editing, naming everyone who wrote since', async () => {
    const { kept, keeper: versions } = keeper();
    const doc = new Y.Doc();
    versions.edited('a', doc, 'ada');
    await vi.advanceTimersByTimeAsync(900);
    versions.edited('a', doc, 'bob');
    versions.edited('a', doc, null); // the server's own change names nobody
    await vi.advanceTimersByTimeAsync(900);
    expect(kept).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(kept).toEqual([{ documentId: 'a', request: { kind: 'auto', writers: ['ada', 'bob'] } }]);
    // Nothing edited since: no more.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(kept).toHaveLength(1);
  });

  it('at least every so often while editing never pauses', async () => {
    const { kept, keeper: versions } = keeper();
    const doc = new Y.Doc();
    for (let t = 0; t <= 10_500; t += 500) {
      versions.edited('a', doc, 'ada');
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(kept).toHaveLength(1);
  });

  it('when asked (the last writer left, shutdown), and by hand with the writers pending', async () => {
    const { kept, keeper: versions } = keeper();
    const doc = new Y.Doc();
    versions.edited('a', doc, 'ada');
    versions.edited('b', doc, 'bob');
    await versions.flush('a');
    await versions.flush('a'); // nothing pending any more
    await versions.keepNow('b', doc, { kind: 'named', name: 'Draft', keptBy: 'bob' });
    versions.edited('c', doc, 'cy');
    await versions.flushAll();
    expect(kept).toEqual([
      { documentId: 'a', request: { kind: 'auto', writers: ['ada'] } },
      {
        documentId: 'b',
        request: { kind: 'named', name: 'Draft', keptBy: 'bob', writers: ['bob'] },
      },
      { documentId: 'c', request: { kind: 'auto', writers: ['cy'] } },
    ]);
    // Kept by hand: the pause that was pending keeps nothing more.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(kept).toHaveLength(3);
  });
});
