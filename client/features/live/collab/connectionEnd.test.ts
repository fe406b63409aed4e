// @vitest-environment jsdom
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { connectDocument, watchEnd, type CollabConnection } from './connect.ts';
import {
  connectionEndOf,
  copyAfterEnd,
  roleChangeNotice,
  type ConnectionEnd,
} from './connectionEnd.ts';

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

  it('tells a role change from a revocation, on the socket (4403) and in the document close', () => {
    expect(connectionEndOf({ code: 4403, reason: 'access-changed' })).toBe('access-changed');
    expect(connectionEndOf({ code: 1000, reason: 'access-changed' })).toBe('access-changed');
  });
});

describe('copyAfterEnd', () => {
  it('reopens after a role change keeping the device copy, and sets aside edits the server had not stored', () => {
    expect(copyAfterEnd('access-changed', false)).toBe('keep');
    expect(copyAfterEnd('access-changed', true)).toBe('set-aside');
  });

  it('deletes the device copy of a document taken away, saved or not, and keeps it at sign-out', () => {
    expect(copyAfterEnd('revoked', false)).toBe('forget');
    expect(copyAfterEnd('revoked', true)).toBe('forget');
    expect(copyAfterEnd('signed-out', true)).toBe('keep');
    expect(copyAfterEnd('refused-update', false)).toBe('set-aside');
    expect(copyAfterEnd('too-large', false)).toBe('set-aside');
  });
});

describe('roleChangeNotice', () => {
  it('says what the person may do now, and whether unsaved edits were set aside', () => {
    const writable = { readOnly: false };
    const readOnly = { readOnly: true };
    expect(roleChangeNotice(writable, readOnly, false)).toBe(
      'You can now only view this document.',
    );
    expect(roleChangeNotice(readOnly, writable, false)).toBe('You can now edit this document.');
    expect(roleChangeNotice(writable, writable, false)).toBeNull();
    const setAside = roleChangeNotice(writable, readOnly, true);
    expect(setAside).toMatch(/^You can now only view this document\. /);
    expect(setAside).toContain('set aside');
    expect(roleChangeNotice(readOnly, readOnly, true)).toContain('set aside');
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

  it('stops this connection after a role change (4403 access-changed), for the page to open a new one', async () => {
    const { end, opened } = await endAfterClose(4403, 'access-changed');
    expect(end).toBe('access-changed');
    expect(opened.provider.configuration.websocketProvider.shouldConnect).toBe(false);
  });

  it('stops reconnecting once an update was refused (1008), so it is not sent again', async () => {
    const { end, opened } = await endAfterClose(1008, 'refused');
    expect(end).toBe('refused-update');
    expect(opened.provider.configuration.websocketProvider.shouldConnect).toBe(false);
  });
});
