// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import {
  createOffThreadFetch,
  OFF_THREAD_MIN_CHARS,
  type FetchWorker,
  type WorkerFetchReply,
  type WorkerFetchRequest,
} from './offThreadFetch.ts';

/** A stand-in worker that records what it is sent; `answer` replies as the real one would. */
function fakeWorker() {
  const sent: WorkerFetchRequest[] = [];
  const worker: FetchWorker = {
    postMessage: (message) => sent.push(message),
    onmessage: null,
    onerror: null,
  };
  const answer = (reply: Omit<Extract<WorkerFetchReply, { ok: true }>, 'id' | 'ok'>) =>
    worker.onmessage?.({ data: { id: sent.at(-1)!.id, ok: true, ...reply } } as MessageEvent);
  return { worker, sent, answer };
}

const large = 'x'.repeat(OFF_THREAD_MIN_CHARS);

describe('offThreadFetch', () => {
  it('sends a large body through the worker and answers with its response', async () => {
    const { worker, sent, answer } = fakeWorker();
    const plain = vi.fn<typeof fetch>();
    const send = createOffThreadFetch(() => worker, plain);
    const pending = send('/api/documents/1', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', 'X-Inkwell-Request': '1' },
      body: large,
      credentials: 'same-origin',
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      url: `${location.origin}/api/documents/1`,
      init: {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'x-inkwell-request': '1' },
        body: large,
        credentials: 'same-origin',
      },
    });
    answer({
      status: 409,
      statusText: 'Conflict',
      headers: [['retry-after', '3']],
      body: '{"error":{"code":"version_conflict"}}',
    });
    const response = await pending;
    expect(response.status).toBe(409);
    expect(response.headers.get('Retry-After')).toBe('3');
    expect(await response.json()).toEqual({ error: { code: 'version_conflict' } });
    expect(plain).not.toHaveBeenCalled();
  });

  it('answers a 204 from the worker without a body', async () => {
    const { worker, answer } = fakeWorker();
    const pending = createOffThreadFetch(() => worker, vi.fn())('/x', {
      method: 'POST',
      body: large,
    });
    answer({ status: 204, statusText: 'No Content', headers: [], body: '' });
    expect((await pending).status).toBe(204);
  });

  it('sends small bodies, keepalive requests and abortable ones the usual way', async () => {
    const newWorker = vi.fn(() => fakeWorker().worker);
    const plain = vi.fn<typeof fetch>(() => Promise.resolve(new Response('ok')));
    const send = createOffThreadFetch(newWorker, plain);
    await send('/a', { method: 'PATCH', body: 'small' });
    await send('/b', { method: 'PATCH', body: large, keepalive: true });
    await send('/c', { method: 'PATCH', body: large, signal: new AbortController().signal });
    await send('/d');
    expect(plain).toHaveBeenCalledTimes(4);
    expect(newWorker).not.toHaveBeenCalled();
  });

  it('fails what a broken worker holds as a network error, then goes the usual way', async () => {
    const { worker } = fakeWorker();
    const plain = vi.fn<typeof fetch>(() => Promise.resolve(new Response('ok')));
    const send = createOffThreadFetch(() => worker, plain);
    const pending = send('/a', { method: 'PATCH', body: large });
    worker.onerror?.(new ErrorEvent('error'));
    await expect(pending).rejects.toBeInstanceOf(TypeError);
    await send('/b', { method: 'PATCH', body: large });
    expect(plain).toHaveBeenCalledTimes(1);
  });

  it('goes the usual way when the worker cannot be made', async () => {
    const plain = vi.fn<typeof fetch>(() => Promise.resolve(new Response('ok')));
    const send = createOffThreadFetch(() => {
      throw new Error('blocked');
    }, plain);
    expect(await (await send('/a', { method: 'PATCH', body: large })).text()).toBe('ok');
  });

  it('reports a failed request in the worker as a network error', async () => {
    const { worker, sent } = fakeWorker();
    const pending = createOffThreadFetch(() => worker, vi.fn())('/a', {
      method: 'PATCH',
      body: large,
    });
    worker.onmessage?.({
      data: { id: sent[0]!.id, ok: false, message: 'Failed to fetch' },
    } as MessageEvent);
    await expect(pending).rejects.toThrow(new TypeError('Failed to fetch'));
  });
});
