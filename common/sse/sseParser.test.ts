import { describe, expect, it } from 'vitest';
import { readSseEvents, SseParser, type SseEvent } from './sseParser.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `body` in slices of the given byte lengths (the rest in one) and collects every event. */
function parse(body: string | Uint8Array, cuts: number[] = []): SseEvent[] {
  const all = typeof body === 'string' ? bytes(body) : body;
  const parser = new SseParser();
  const events: SseEvent[] = [];
  let at = 0;
  for (const cut of [...cuts, all.length]) {
    events.push(...parser.push(all.subarray(at, cut)));
    at = cut;
  }
  events.push(...parser.end());
  return events;
}

describe('SseParser', () => {
  it('reads data events, named events and multi-line data', () => {
    expect(parse('data: one\n\nevent: usage\ndata: a\ndata: b\n\n')).toEqual([
      { event: 'message', data: 'one' },
      { event: 'usage', data: 'a\nb' },
    ]);
  });

  it('accepts LF, CRLF and CR line endings alike', () => {
    const expected = [
      { event: 'message', data: 'x' },
      { event: 'message', data: '[DONE]' },
    ];
    expect(parse('data: x\n\ndata: [DONE]\n\n')).toEqual(expected);
    expect(parse('data: x\r\n\r\ndata: [DONE]\r\n\r\n')).toEqual(expected);
    expect(parse('data: x\r\rdata: [DONE]\r\r')).toEqual(expected);
  });

  it('skips comments and keep-alives, and fields it has no use for', () => {
    const body = ': OPENROUTER PROCESSING\n\nid: 7\nretry: 1000\n: ping\ndata:no-space\n\n:\n\n';
    expect(parse(body)).toEqual([{ event: 'message', data: 'no-space' }]);
  });

  it('gives the same events however the bytes are split, even inside a CRLF or a character', () => {
    const body = 'data: {"t":"héllo ✍️"}\r\n\r\n: keep-alive\r\n\r\ndata: [DONE]\r\n\r\n';
    const whole = parse(body);
    expect(whole).toEqual([
      { event: 'message', data: '{"t":"héllo ✍️"}' },
      { event: 'message', data: '[DONE]' },
    ]);
    const length = bytes(body).length;
    for (let cut = 1; cut < length; cut += 1) expect(parse(body, [cut])).toEqual(whole);
    for (let step = 1; step <= 3; step += 1) {
      const cuts = Array.from({ length: Math.floor(length / step) }, (_, i) => (i + 1) * step);
      expect(parse(body, cuts)).toEqual(whole);
    }
  });

  it('does not let a CR at the end of one chunk and an LF at the start of the next make a blank line', () => {
    expect(parse('data: a\r\ndata: b\r\n\r\n', [8])).toEqual([{ event: 'message', data: 'a\nb' }]);
  });

  it('drops an event that the body ends before closing', () => {
    expect(parse('data: whole\n\ndata: {"half":')).toEqual([{ event: 'message', data: 'whole' }]);
    expect(parse('data: no blank line\n')).toEqual([]);
  });

  it('dispatches an empty data line as an empty event, and nothing for a lone blank line', () => {
    expect(parse('\n\ndata:\n\n')).toEqual([{ event: 'message', data: '' }]);
  });
});

describe("SseParser on the server's own stream", () => {
  const STREAM =
    'event: delta\r\ndata: {"text":"Hel"}\r\n\r\n' +
    ': keep-alive comment\n\n' +
    'event: delta\ndata: {"text":"lo"}\n\n' +
    'event: done\rdata: {"finishReason":"stop"}\r\r';
  const EXPECTED = [
    { event: 'delta', data: '{"text":"Hel"}' },
    { event: 'delta', data: '{"text":"lo"}' },
    { event: 'done', data: '{"finishReason":"stop"}' },
  ];

  it('gives the same named events with CRLF, CR and LF, whichever byte the chunks split at', () => {
    expect(parse(STREAM)).toEqual(EXPECTED);
    const length = bytes(STREAM).length;
    for (let cut = 1; cut < length; cut += 1) expect(parse(STREAM, [cut])).toEqual(EXPECTED);
    const everyByte = Array.from({ length }, (_, i) => i + 1);
    expect(parse(STREAM, everyByte)).toEqual(EXPECTED);
  });

  it('holds an event back until its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push(bytes('event: delta\ndata: {}\n'))).toEqual([]);
    expect(parser.push(bytes('\n'))).toEqual([{ event: 'delta', data: '{}' }]);
  });
});

describe('readSseEvents', () => {
  it('decodes a body whose chunks split a multi-byte character', async () => {
    const body = bytes('event: delta\ndata: {"text":"é"}\n\n');
    const split = body.indexOf(0xc3) + 1;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(body.slice(0, split));
        controller.enqueue(body.slice(split));
        controller.close();
      },
    });
    const events = [];
    for await (const event of readSseEvents(stream)) events.push(event);
    expect(events).toEqual([{ event: 'delta', data: '{"text":"é"}' }]);
  });

  it('drops an event the body ends inside', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes('data: whole\n\ndata: half'));
        controller.close();
      },
    });
    const events = [];
    for await (const event of readSseEvents(stream)) events.push(event);
    expect(events).toEqual([{ event: 'message', data: 'whole' }]);
  });
});
