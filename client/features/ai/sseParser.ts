/** One Server-Sent Event: its `event` name (default `message`) and its `data` lines joined. */
export interface SseEvent {
  /** The `event:` field, or `message` when the event had none. */
  event: string;
  /** The `data:` lines, joined with line feeds. */
  data: string;
}

/**
 * An incremental parser of the `text/event-stream` format (WHATWG HTML §9.2): feed it text in
 * pieces split anywhere, even inside a CRLF pair, and it returns each event once it is complete.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  // A chunk ending in CR may be the first half of a CRLF pair: its LF must not end a second line.
  private skipLineFeed = false;

  /** Adds the next piece of text; returns the events it completed, in order. */
  push(chunk: string): SseEvent[] {
    let text = chunk;
    if (this.skipLineFeed && text.startsWith('\n')) text = text.slice(1);
    this.skipLineFeed = false;
    this.buffer += text;
    const events: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const match = /\r\n|\r|\n/g;
      match.lastIndex = start;
      const found = match.exec(this.buffer);
      if (!found) break;
      // A CR at the very end may be followed by an LF in the next chunk.
      if (found[0] === '\r' && found.index === this.buffer.length - 1) this.skipLineFeed = true;
      const event = this.line(this.buffer.slice(start, found.index));
      if (event) events.push(event);
      start = found.index + found[0].length;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  private line(line: string): SseEvent | null {
    if (line === '') {
      const complete =
        this.data.length > 0
          ? { event: this.event || 'message', data: this.data.join('\n') }
          : null;
      this.event = '';
      this.data = [];
      return complete;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return null;
  }
}

/** Reads a response body as Server-Sent Events until it ends (or its fetch is aborted). */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    // The format drops an event that the stream ends before its blank line.
    yield* parser.push(decoder.decode());
  } finally {
    reader.releaseLock();
  }
}
