import { describe, expect, it, vi } from 'vitest';
import { largeBodyFetch, LARGE_BODY_CHARS } from './largeBodyFetch.ts';
import { OFF_THREAD_MIN_CHARS } from './offThreadFetch.ts';

const ok = () => Promise.resolve(new Response('{}'));

describe('largeBodyFetch', () => {
  it('calls a body large where offThreadFetch does', () => {
    expect(LARGE_BODY_CHARS).toBe(OFF_THREAD_MIN_CHARS);
  });

  it('sends small bodies, keepalive and abortable requests at once, without loading anything', async () => {
    const load = vi.fn();
    const plain = vi.fn<typeof fetch>(ok);
    const send = largeBodyFetch(plain, load);
    const large = 'x'.repeat(LARGE_BODY_CHARS);
    await send('/api/a', { method: 'POST', body: 'small' });
    await send('/api/b', { method: 'POST', body: large, keepalive: true });
    await send('/api/c', { method: 'POST', body: large, signal: new AbortController().signal });
    await send('/api/d');
    expect(load).not.toHaveBeenCalled();
    expect(plain.mock.calls.map(([input]) => input)).toEqual([
      '/api/a',
      '/api/b',
      '/api/c',
      '/api/d',
    ]);
  });

  it('loads offThreadFetch once, with the first large body, and sends large bodies through it', async () => {
    const offThread = vi.fn<typeof fetch>(ok);
    const load = vi.fn(() => Promise.resolve({ createOffThreadFetch: () => offThread }));
    const plain = vi.fn<typeof fetch>(ok);
    const send = largeBodyFetch(plain, load);
    const body = 'x'.repeat(LARGE_BODY_CHARS);
    await Promise.all([
      send('/api/a', { method: 'POST', body }),
      send('/api/b', { method: 'POST', body }),
    ]);
    expect(load).toHaveBeenCalledTimes(1);
    expect(offThread.mock.calls.map(([input]) => input)).toEqual(['/api/a', '/api/b']);
    expect(plain).not.toHaveBeenCalled();
  });

  it('sends the usual way when offThreadFetch cannot load, and tries loading again later', async () => {
    const load = vi.fn(() => Promise.reject(new Error('offline')));
    const plain = vi.fn<typeof fetch>(ok);
    const send = largeBodyFetch(plain, load);
    const body = 'x'.repeat(LARGE_BODY_CHARS);
    await send('/api/a', { method: 'POST', body });
    await send('/api/b', { method: 'POST', body });
    expect(plain.mock.calls.map(([input]) => input)).toEqual(['/api/a', '/api/b']);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
