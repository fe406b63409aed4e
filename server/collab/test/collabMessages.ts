import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import type { WebSocket } from 'ws';
import * as Y from 'yjs';
import type { Database } from '../../db/database.ts';
import { socketClass } from './collabClient.ts';

/*
 * Hocuspocus messages written by hand, and a socket that sends them as they are: for the clients
 * no provider is, which the server must refuse or survive.
 */

/** A Hocuspocus message: the document's name, the message type, then `write` fills the rest. */
export function message(
  name: string,
  type: number,
  write: (encoder: encoding.Encoder) => void,
): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, name);
  encoding.writeVarUint(encoder, type);
  write(encoder);
  return encoding.toUint8Array(encoder);
}

/** The authentication of document `name` (the cookie decides; the token is ignored). */
export const auth = (name: string): Uint8Array =>
  message(name, 2, (e) => {
    encoding.writeVarUint(e, 0);
    encoding.writeVarString(e, 'cookie');
  });

/** Sync step 1 from an empty document: the server answers with the whole document. */
export const syncStep1 = (name: string): Uint8Array =>
  message(name, 0, (e) => {
    encoding.writeVarUint(e, 0);
    encoding.writeVarUint8Array(e, Y.encodeStateVector(new Y.Doc()));
  });

/** A Yjs update for document `name`. */
export const update = (name: string, bytes: Uint8Array): Uint8Array =>
  message(name, 0, (e) => {
    encoding.writeVarUint(e, 2);
    encoding.writeVarUint8Array(e, bytes);
  });

/** A raw socket with `cookie`, recording the document name of every message it gets. */
export async function rawSocket(
  serverUrl: string,
  cookie: string,
): Promise<{
  socket: WebSocket;
  names: string[];
  closed: Promise<number>;
  reason: Promise<string>;
}> {
  const Socket = socketClass(new URL(serverUrl).origin, cookie);
  const socket = new Socket(`${serverUrl.replace(/^http/, 'ws')}/api/collab`);
  const names: string[] = [];
  socket.on('message', (data: Buffer) => {
    names.push(decoding.readVarString(decoding.createDecoder(new Uint8Array(data))));
  });
  const closedWith = new Promise<[number, string]>((resolve) =>
    socket.once('close', (code, reason: Buffer) => resolve([code, reason.toString()])),
  );
  await new Promise((resolve) => socket.once('open', resolve));
  return {
    socket,
    names,
    closed: closedWith.then(([code]) => code),
    reason: closedWith.then(([, reason]) => reason),
  };
}

/** How many updates of document `id` are in the log, not yet folded into its snapshot. */
export async function storedUpdates(db: Database, id: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM document_yjs_updates WHERE document_id = $1',
    [id],
  );
  return rows[0]!.n;
}
