import { ApiError, type ApiClient } from '../../../lib/api.ts';

/** One SSE event to answer with: its name and its JSON data. */
export type FakeEvent = [event: string, data: unknown];

/** What the fake answers one `stream` call with: events, an API error, or events then silence. */
export type FakeAnswer = FakeEvent[] | ApiError | { events: FakeEvent[]; hang: true };

/**
 * A test double of the API client for `POST /api/ai/generate`: answers each `stream` call with
 * the next queued answer as a text/event-stream body, and records the calls and their signals.
 * No network is used. Bodies that hang end with an AbortError when their signal aborts, as fetch does.
 */
export function fakeAiClient(...answers: FakeAnswer[]) {
  const calls: { path: string; body: unknown; signal: AbortSignal | undefined }[] = [];
  const refuse = () => Promise.reject(new Error('fakeAiClient: only stream() is faked'));
  const client: ApiClient = {
    get: refuse,
    post: refuse,
    patch: refuse,
    put: refuse,
    delete: refuse,
    deleteWith: refuse,
    getRaw: refuse,
    stream: (path, body, options = {}) => {
      calls.push({ path, body, signal: options.signal });
      const answer = answers.shift();
      if (!answer) return Promise.reject(new Error('fakeAiClient: no answer queued'));
      if (answer instanceof ApiError) return Promise.reject(answer);
      const events = Array.isArray(answer) ? answer : answer.events;
      const hang = !Array.isArray(answer);
      const text = events.map(
        ([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
      );
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const piece of text) controller.enqueue(new TextEncoder().encode(piece));
          if (!hang) controller.close();
          options.signal?.addEventListener('abort', () =>
            controller.error(new DOMException('The operation was aborted.', 'AbortError')),
          );
        },
      });
      return Promise.resolve(
        new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } }),
      );
    },
  };
  return { client, calls };
}
