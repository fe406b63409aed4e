import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UploadCancelledError, UploadError, uploadFile } from './uploadFile.ts';

/** Stands in for the browser's XMLHttpRequest: each request waits until the test answers it. */
class FakeRequest {
  static sent: FakeRequest[] = [];
  status = 0;
  response: unknown = null;
  responseType = '';
  url = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private headers = new Map<string, string>();

  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send() {
    FakeRequest.sent.push(this);
  }
  abort() {
    this.onabort?.();
  }
  getResponseHeader(name: string): string | null {
    return this.headers.get(name.toLowerCase()) ?? null;
  }
  /** Answers with `status`, `body` (JSON already parsed) and `headers`. */
  answer(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.response = body;
    this.headers = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    this.onload?.();
  }
}

const stored = (id: string) => ({
  id,
  url: `/files/${id}`,
  width: 1,
  height: 1,
  type: 'image/png',
  bytes: 1,
  name: 'a.png',
});

/** Lets the promises that can settle now do so. */
const settled = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

const RATE_LIMITED = {
  error: {
    code: 'rate_limited',
    message: 'Too many uploads: at most 60 a minute. Try again in 37 seconds.',
  },
};

beforeEach(() => {
  FakeRequest.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeRequest);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('uploading a file', () => {
  it('sends two uploads at a time, and the next when one is answered', async () => {
    const blob = new Blob(['x']);
    const uploads = ['a', 'b', 'c'].map((id) => uploadFile(blob, `${id}.png`));
    await settled();
    expect(FakeRequest.sent.map((request) => request.url)).toEqual([
      '/api/files?name=a.png',
      '/api/files?name=b.png',
    ]);
    FakeRequest.sent[1]!.answer(201, stored('b'));
    await settled();
    expect(FakeRequest.sent).toHaveLength(3);
    FakeRequest.sent[0]!.answer(201, stored('a'));
    FakeRequest.sent[2]!.answer(201, stored('c'));
    expect((await Promise.all(uploads)).map((file) => file.id)).toEqual(['a', 'b', 'c']);
  });

  it('fails a 429 with the server’s message, which names the wait, and the wait itself', async () => {
    const upload = uploadFile(new Blob(['x']), 'a.png');
    await settled();
    FakeRequest.sent[0]!.answer(429, RATE_LIMITED, { 'Retry-After': '37' });
    const error = await upload.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({
      message: RATE_LIMITED.error.message,
      status: 429,
      retryAfter: 37,
    });
  });

  it('names the wait of a 429 whose body is not the server’s', async () => {
    const upload = uploadFile(new Blob(['x']), 'a.png');
    await settled();
    FakeRequest.sent[0]!.answer(429, null, { 'Retry-After': '12' });
    await expect(upload).rejects.toThrow('Too many uploads. Try again in 12 seconds.');
  });

  it('waits out a 429 when asked to, and sends again', async () => {
    vi.useFakeTimers();
    const upload = uploadFile(new Blob(['x']), 'a.png', { waitIfLimited: true });
    await settled();
    FakeRequest.sent[0]!.answer(429, RATE_LIMITED, { 'Retry-After': '30' });
    await settled();
    await vi.advanceTimersByTimeAsync(29_000);
    expect(FakeRequest.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeRequest.sent).toHaveLength(2);
    FakeRequest.sent[1]!.answer(201, stored('a'));
    expect((await upload).id).toBe('a');
  });

  it('cancels an upload still waiting its turn without sending it', async () => {
    const blob = new Blob(['x']);
    const controller = new AbortController();
    const first = [uploadFile(blob, 'a.png'), uploadFile(blob, 'b.png')];
    const third = uploadFile(blob, 'c.png', { signal: controller.signal });
    await settled();
    controller.abort();
    await expect(third).rejects.toBeInstanceOf(UploadCancelledError);
    FakeRequest.sent[0]!.answer(201, stored('a'));
    FakeRequest.sent[1]!.answer(201, stored('b'));
    await Promise.all(first);
    await settled();
    expect(FakeRequest.sent).toHaveLength(2);
  });
});
