import type * as OffThread from './offThreadFetch.ts';

/** offThreadFetch.ts's OFF_THREAD_MIN_CHARS, which largeBodyFetch.test.ts holds it to. */
export const LARGE_BODY_CHARS = 64 * 1024;

type OffThreadModule = Pick<typeof OffThread, 'createOffThreadFetch'>;

/**
 * `plainFetch` (the page's `fetch`), except that a large string body goes through
 * offThreadFetch.ts, whose code loads with the first such request (an import's create; live
 * edits go over the shared document's socket): the editor page never needs it to open or edit a
 * document. Requests it would send the usual way anyway (small bodies, `keepalive`, an abort
 * signal) go at once; if its code cannot load (offline, new deploy), the request goes the usual
 * way, as offThreadFetch does without a worker.
 */
export function largeBodyFetch(
  plainFetch: typeof fetch,
  load: () => Promise<OffThreadModule> = () => import('./offThreadFetch.ts'),
): typeof fetch {
  let offThread: Promise<typeof fetch> | undefined;
  return (input, init) => {
    const body = init?.body;
    const large = typeof body === 'string' && body.length >= LARGE_BODY_CHARS;
    if (!large || init?.keepalive || init?.signal) return plainFetch(input, init);
    offThread ??= load().then(
      (module) => module.createOffThreadFetch(undefined, plainFetch),
      () => {
        offThread = undefined;
        return plainFetch;
      },
    );
    return offThread.then((send) => send(input, init));
  };
}
