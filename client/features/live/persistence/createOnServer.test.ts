import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SaveResult } from '../../../../common/api/documents.ts';
import { ApiError, NetworkError } from '../../../lib/api.ts';
import { createOnServer } from './createOnServer.ts';

const created: SaveResult = { id: 'd', version: 1, updatedAt: 'now' };

/** A create that fails with `failures` in turn, then succeeds; counts its attempts. */
function sender(failures: unknown[]) {
  const attempts = { count: 0 };
  const send = () => {
    const failure = failures[attempts.count];
    attempts.count += 1;
    return failure === undefined ? Promise.resolve(created) : Promise.reject(failure);
  };
  return { send, attempts };
}

describe('createOnServer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('tries again after 1 s, then 2 s, while offline, and resolves once the server has it', async () => {
    const offline = new NetworkError('down');
    const { send, attempts } = sender([offline, offline]);
    const retries = vi.fn();
    const done = createOnServer(send, () => true, retries);
    await vi.advanceTimersByTimeAsync(999);
    expect(attempts.count).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts.count).toBe(2);
    await vi.advanceTimersByTimeAsync(2000);
    await expect(done).resolves.toEqual(created);
    expect(retries).toHaveBeenCalledTimes(2);
  });

  it("waits as long as the server's Retry-After asks", async () => {
    const { send, attempts } = sender([
      new ApiError('rate_limited', 'Slow down.', 429, {}, undefined, 5),
    ]);
    const done = createOnServer(
      send,
      () => true,
      () => undefined,
    );
    await vi.advanceTimersByTimeAsync(4999);
    expect(attempts.count).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(done).resolves.toEqual(created);
  });

  it.each([
    ['a refusal', new ApiError('payload_too_large', 'Too large.', 413), true],
    ['any failure once the page is gone', new NetworkError('down'), false],
  ])('gives up on %s', async (_, failure, live) => {
    const { send, attempts } = sender([failure]);
    await expect(
      createOnServer(
        send,
        () => live,
        () => undefined,
      ),
    ).rejects.toBe(failure);
    expect(attempts.count).toBe(1);
  });
});
