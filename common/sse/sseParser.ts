import { createParser } from 'eventsource-parser';

/** One Server-Sent Event: its `event` field (`message` when absent) and its joined `data` lines. */
export interface SseEvent {
  /** The event's name. */
  event: string;
  /** The `data` lines joined with `\n`. */
  data: string;
}

/**
 * An incremental reader of a `text/event-stream` body, the one both sides use: the server on the
 * AI provider's answer, the client on the server's. Bytes may be split anywhere, even inside a
 * UTF-8 character or a CRLF pair; each event comes out once the blank line that ends it arrives.
 * eventsource-parser does the parsing (lines, comments, fields as the WHATWG HTML standard says);
 * this adds the decoding of bytes and the browser's `message` default for a nameless event.
 */
export class SseParser {
  readonly #decoder = new TextDecoder('utf-8');
  #events: SseEvent[] = [];
  // `id` and `retry` steer EventSource reconnection, which a one-shot request has no use for.
  readonly #parser = createParser({
    onEvent: ({ event, data }) => {
      this.#events.push({ event: event || 'message', data });
    },
  });

  /** Takes the next bytes of the body and returns the events they complete. */
  push(chunk: Uint8Array): SseEvent[] {
    return this.#take(this.#decoder.decode(chunk, { stream: true }));
  }

  /**
   * Ends the body and returns what its last bytes complete. As the standard says, an event that no
   * blank line closed is dropped: a body cut inside an event must not pass for a whole one.
   */
  end(): SseEvent[] {
    const events = this.#take(this.#decoder.decode());
    this.#parser.reset();
    return events;
  }

  #take(text: string): SseEvent[] {
    this.#parser.feed(text);
    const events = this.#events;
    this.#events = [];
    return events;
  }
}

/** Reads a response body as Server-Sent Events until it ends (or its fetch is aborted). */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const parser = new SseParser();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(value);
    }
    yield* parser.end();
  } finally {
    reader.releaseLock();
  }
}
