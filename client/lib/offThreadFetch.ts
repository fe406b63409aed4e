/** Bodies from this size on are sent by a worker: a document save, an import's create. */
export const OFF_THREAD_MIN_CHARS = 64 * 1024;

/** A request as the page hands it to the worker: a string body, nothing that cannot be cloned. */
export interface WorkerFetchRequest {
  id: number;
  url: string;
  init: {
    method: string;
    headers: Record<string, string>;
    body: string;
    credentials: 'same-origin';
  };
}

/** The worker's answer: the response read whole (API answers are small), or why it failed. */
export type WorkerFetchReply =
  | {
      id: number;
      ok: true;
      status: number;
      statusText: string;
      headers: [string, string][];
      body: string;
    }
  | { id: number; ok: false; message: string };

/** What `offThreadFetch` needs of a worker; a test passes its own. */
export interface FetchWorker {
  postMessage(message: WorkerFetchRequest): void;
  onmessage: ((event: MessageEvent<WorkerFetchReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
}

const startWorker = (): FetchWorker =>
  new Worker(new URL('./fetchWorker.ts', import.meta.url), { type: 'module', name: 'fetch' });

/**
 * `fetch`, except that a request with a large string body is sent by a worker. Turning a
 * megabytes-long document into bytes for the network takes the main thread ~100 ms in Chromium
 * (measured on a 4.5 MB save); handing the string to a worker takes a few, so typing in a long
 * document does not stall while it saves. Requests that must outlive the page (`keepalive`),
 * can be aborted, or have small bodies go the usual way, as does everything where workers are
 * missing or the worker failed to start.
 */
export function createOffThreadFetch(
  newWorker: () => FetchWorker = startWorker,
  plainFetch: typeof fetch = (input, init) => fetch(input, init),
): typeof fetch {
  let worker: FetchWorker | null = null;
  let broken = typeof Worker === 'undefined' && newWorker === startWorker;
  let nextId = 1;
  const waiting = new Map<
    number,
    { resolve: (response: Response) => void; reject: (error: Error) => void }
  >();

  const fail = (message: string) => {
    broken = true;
    worker = null;
    for (const { reject } of waiting.values()) reject(new TypeError(message));
    waiting.clear();
  };

  const ensureWorker = (): FetchWorker | null => {
    if (worker || broken) return worker;
    try {
      worker = newWorker();
    } catch {
      broken = true;
      return null;
    }
    worker.onmessage = ({ data }) => {
      const pending = waiting.get(data.id);
      if (!pending) return;
      waiting.delete(data.id);
      if (data.ok) {
        // 204 and the like take no body.
        const body = [101, 204, 205, 304].includes(data.status) ? null : data.body;
        const { status, statusText, headers } = data;
        pending.resolve(new Response(body, { status, statusText, headers }));
      } else pending.reject(new TypeError(data.message));
    };
    // A worker that cannot start (a blocked script, an old browser) fails what it holds as a
    // network error, which the caller retries; later requests go the usual way.
    worker.onerror = () => fail('The request could not be sent.');
    return worker;
  };

  return (input, init) => {
    const body = init?.body;
    const large = typeof body === 'string' && body.length >= OFF_THREAD_MIN_CHARS;
    const target = large && !init?.keepalive && !init?.signal ? ensureWorker() : null;
    if (!target || typeof body !== 'string') return plainFetch(input, init);
    const url = new URL(String(input instanceof Request ? input.url : input), location.href).href;
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const id = nextId++;
    return new Promise<Response>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      target.postMessage({
        id,
        url,
        init: { method: init?.method ?? 'GET', headers, body, credentials: 'same-origin' },
      });
    });
  };
}
