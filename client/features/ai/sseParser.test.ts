import { describe, expect, it } from 'vitest';
import { readSseEvents, SseParser } from './sseParser.ts';

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

function parseInPieces(pieces: string[]) {
  const parser = new SseParser();
  return pieces.flatMap((piece) => parser.push(piece));
}

describe('SseParser', () => {
  it('returns every event of one chunk, with CRLF, CR and LF line ends', () => {
    expect(parseInPieces([STREAM])).toEqual(EXPECTED);
  });

  it('gives the same events whichever character the chunks split at', () => {
    for (let cut = 1; cut < STREAM.length; cut++) {
      expect(parseInPieces([STREAM.slice(0, cut), STREAM.slice(cut)])).toEqual(EXPECTED);
    }
  });

  it('gives the same events when fed one character at a time', () => {
    expect(parseInPieces([...STREAM])).toEqual(EXPECTED);
  });

  it('joins several data lines with a line feed and defaults the event name', () => {
    expect(parseInPieces(['data: a\ndata:b\n\n'])).toEqual([{ event: 'message', data: 'a\nb' }]);
  });

  it('holds an event back until its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push('event: delta\ndata: {}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'delta', data: '{}' }]);
  });
});

describe('readSseEvents', () => {
  it('decodes a body whose chunks split a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('event: delta\ndata: {"text":"é"}\n\n');
    const split = bytes.indexOf(0xc3) + 1;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, split));
        controller.enqueue(bytes.slice(split));
        controller.close();
      },
    });
    const events = [];
    for await (const event of readSseEvents(body)) events.push(event);
    expect(events).toEqual([{ event: 'delta', data: '{"text":"é"}' }]);
  });
});
