import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/**
 * A WebSocket client written on a bare TCP socket, for the clients a browser never is: one that
 * ignores the server's close frame and goes on sending, and one that stops reading. `ws` (and
 * every WebSocket library) answers a close frame by itself, so neither can be had from one.
 */
export interface RawFrameClient {
  /** Sends one binary frame, masked as a client must. */
  send(data: Uint8Array): void;
  /** Stops reading: what the server sends piles up in the kernel's buffers, then in its own. */
  stopReading(): void;
  /** Reads again, so that the end of the connection is seen. */
  readAgain(): void;
  /** The close code of the server's close frame, once one arrived (while reading). */
  closeCode: Promise<number>;
  /** Resolves once the server ended the TCP connection. */
  ended: Promise<void>;
  /** Bytes received so far, headers excluded. */
  received(): number;
  destroy(): void;
}

/** Opens `/api/collab` on `serverUrl` with `cookie`, as a page of the server's origin would. */
export async function rawFrameClient(serverUrl: string, cookie: string): Promise<RawFrameClient> {
  const url = new URL(serverUrl);
  const socket: Socket = connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    [
      'GET /api/collab HTTP/1.1',
      `Host: ${url.host}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      `Origin: ${url.origin}`,
      `Cookie: ${cookie}`,
      '',
      '',
    ].join('\r\n'),
  );
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  let total = 0;
  let settleClose: (code: number) => void = () => undefined;
  const closeCode = new Promise<number>((resolve) => (settleClose = resolve));
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = buffer.subarray(0, end).toString();
        if (!head.startsWith('HTTP/1.1 101')) {
          reject(new Error(`not upgraded: ${head.split('\r\n')[0]}`));
          return;
        }
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        resolve();
      }
      total += chunk.byteLength;
      // Frames from the server are unmasked: find a close frame (opcode 8) among them.
      for (;;) {
        if (buffer.length < 2) return;
        const opcode = buffer[0]! & 0x0f;
        let length = buffer[1]! & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (buffer.length < 4) return;
          length = buffer.readUInt16BE(2);
          offset = 4;
        } else if (length === 127) {
          if (buffer.length < 10) return;
          length = Number(buffer.readBigUInt64BE(2));
          offset = 10;
        }
        if (buffer.length < offset + length) return;
        if (opcode === 8) settleClose(length >= 2 ? buffer.readUInt16BE(offset) : 1005);
        buffer = buffer.subarray(offset + length);
      }
    });
  });
  return {
    send(data) {
      const mask = randomBytes(4);
      const length = data.byteLength;
      const head =
        length < 126
          ? Buffer.from([0x82, 0x80 | length])
          : length < 65_536
            ? Buffer.from([0x82, 0x80 | 126, length >> 8, length & 0xff])
            : Buffer.concat([Buffer.from([0x82, 0x80 | 127]), bigEndian64(length)]);
      const payload = Buffer.from(data);
      for (let i = 0; i < payload.length; i++) payload[i] = payload[i]! ^ mask[i % 4]!;
      if (!socket.destroyed) socket.write(Buffer.concat([head, mask, payload]));
    },
    stopReading() {
      socket.pause();
    },
    readAgain() {
      socket.resume();
    },
    closeCode,
    ended,
    received: () => total,
    destroy: () => socket.destroy(),
  };
}

function bigEndian64(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return bytes;
}
