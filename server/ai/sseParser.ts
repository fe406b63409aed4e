/** One Server-Sent Event: its `event` field (`message` when absent) and its joined `data` lines. */
export interface SseEvent {
  /** The event's name. */
  event: string;
  /** The `data` lines joined with `\n`. */
  data: string;
}

/**
 * An incremental parser of a `text/event-stream` body as the WHATWG HTML standard defines it:
 * lines end in CRLF, LF or CR; `:` starts a comment (providers send them as keep-alives); a blank
 * line ends an event. Bytes may be split anywhere, even inside a UTF-8 character or a CRLF.
 */
export class SseParser {
  readonly #decoder = new TextDecoder('utf-8');
  #buffer = '';
  /** A CR ended the last chunk: an LF opening the next one belongs to it. */
  #pendingCr = false;
  #event = '';
  #data: string[] = [];
  #hasData = false;

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
    this.#buffer = '';
    this.#event = '';
    this.#data = [];
    this.#hasData = false;
    return events;
  }

  #take(text: string): SseEvent[] {
    let input = text;
    if (this.#pendingCr && input.startsWith('\n')) input = input.slice(1);
    this.#pendingCr = false;
    this.#buffer += input;
    const events: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const end = nextLineEnd(this.#buffer, start);
      if (end === -1) break;
      const line = this.#buffer.slice(start, end);
      const ch = this.#buffer[end];
      if (ch === '\r') {
        if (end + 1 === this.#buffer.length) this.#pendingCr = true;
        start = this.#buffer[end + 1] === '\n' ? end + 2 : end + 1;
      } else {
        start = end + 1;
      }
      const event = this.#line(line);
      if (event) events.push(event);
    }
    this.#buffer = this.#buffer.slice(start);
    return events;
  }

  #line(line: string): SseEvent | undefined {
    if (line === '') {
      const event = this.#hasData
        ? { event: this.#event || 'message', data: this.#data.join('\n') }
        : undefined;
      this.#event = '';
      this.#data = [];
      this.#hasData = false;
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.#data.push(value);
      this.#hasData = true;
    } else if (field === 'event') {
      this.#event = value;
    }
    // `id` and `retry` steer browser reconnection, which a one-shot request has no use for.
    return undefined;
  }
}

function nextLineEnd(text: string, from: number): number {
  for (let index = from; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 10 || code === 13) return index;
  }
  return -1;
}
