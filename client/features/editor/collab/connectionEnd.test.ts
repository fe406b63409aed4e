// @vitest-environment jsdom
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { connectDocument, watchEnd, type CollabConnection } from './connect.ts';
import { connectionEndOf, type ConnectionEnd } from './connectionEnd.ts';

describe('connectionEndOf', () => {
  it('tells signed-out, revoked, refused-update and too-large apart from closes worth reconnecting after', () => {
    expect(connectionEndOf({ code: 4401, reason: 'signed-out' })).toBe('signed-out');
    expect(connectionEndOf({ code: 4403, reason: 'access-revoked' })).toBe('revoked');
    // Hocuspocus's close message for one document on a socket that stays open.
    expect(connectionEndOf({ code: 1000, reason: 'access-revoked' })).toBe('revoked');
    expect(connectionEndOf({ code: 1008, reason: 'refused' })).toBe('refused-update');
    // The document would pass its size limit: the same update would be refused at every reconnect.
    expect(connectionEndOf({ code: 1009, reason: 'document-too-large' })).toBe('too-large');
    // A flood refuses nothing the device holds (server/routes/collab.ts).
    expect(connectionEndOf({ code: 1008, reason: 'too-many-messages' })).toBeNull();
    for (const code of [1000, 1006, 1011, 1012]) expect(connectionEndOf({ code })).toBeNull();
    expect(connectionEndOf(undefined)).toBeNull();
  });
});

describe('watchEnd against a server that closes every socket with one code', () => {
  let server: WebSocketServer | null = null;
  let connection: CollabConnection | null = null;
  afterEach(async () => {
    connection?.destroy();
    connection = null;
    await new Promise((resolve) => server?.close(resolve));
    server = null;
  });

  /** Opens a document on a server closing each socket with `code`; resolves with the end seen. */
  async function endAfterClose(code: number, reason: string) {
    let sockets = 0;
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    server.on('connection', (socket) => {
      sockets += 1;
      socket.close(code, reason);
    });
    await new Promise((resolve) => server!.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    connection = connectDocument('5b0c7c1e-7a8e-4c55-9d5c-0f6f0b0b7a02', {
      url: `ws://127.0.0.1:${port}/api/collab`,
      WebSocketPolyfill: WebSocket,
    });
    const opened = connection;
    const end = await new Promise<ConnectionEnd>((resolve) => watchEnd(opened, resolve));
    return { end, sockets: () => sockets, opened };
  }

  it('stops reconnecting once the session was signed out (4401)', async () => {
    const { end, sockets, opened } = await endAfterClose(4401, 'signed-out');
    expect(end).toBe('signed-out');
    expect(opened.provider.configuration.websocketProvider.shouldConnect).toBe(false);
    expect(sockets()).toBe(1);
  });

  it('stops reconnecting once access was withdrawn (4403)', async () => {
    const { end, opened } = await endAfterClose(4403, 'access-revoked');
    expect(end).toBe('revoked');
    expect(opened.provider.configuration.websocketProvider.shouldConnect).toBe(false);
  });

  it('stops reconnecting once an update was refused (1008), so it is not sent again', async () => {
    const { end, opened } = await endAfterClose(1008, 'refused');
    expect(end).toBe('refused-update');
    expect(opened.provider.configuration.websocketProvider.shouldConnect).toBe(false);
  });
});
