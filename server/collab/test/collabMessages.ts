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

/** A presence (awareness) message for `name` holding `states` by client id, each at `clock`. */
export function presence(name: string, states: Array<[number, unknown]>, clock = 1): Uint8Array {
  const update = encoding.createEncoder();
  encoding.writeVarUint(update, states.length);
  for (const [id, state] of states) {
    encoding.writeVarUint(update, id);
    encoding.writeVarUint(update, clock);
    encoding.writeVarString(update, JSON.stringify(state));
  }
  return message(name, 1, (e) => encoding.writeVarUint8Array(e, encoding.toUint8Array(update)));
}

/** A presence message as a client reads it: the awareness states it holds, or a stateless payload. */
export type PresenceMessage =
  | { kind: 'awareness'; states: Array<{ id: number; clock: number; state: unknown }> }
  | { kind: 'stateless'; payload: string };

/** The presence a message from the server carries (awareness or stateless), null for anything else. */
export function readPresence(data: Uint8Array): PresenceMessage | null {
  const decoder = decoding.createDecoder(data);
  decoding.readVarString(decoder);
  const type = decoding.readVarUint(decoder);
  if (type === 5) return { kind: 'stateless', payload: decoding.readVarString(decoder) };
  if (type !== 1) return null;
  const update = decoding.createDecoder(decoding.readVarUint8Array(decoder));
  const states: Array<{ id: number; clock: number; state: unknown }> = [];
  for (let count = decoding.readVarUint(update); count > 0; count--) {
    const id = decoding.readVarUint(update);
    const clock = decoding.readVarUint(update);
    states.push({ id, clock, state: JSON.parse(decoding.readVarString(update)) });
  }
  return { kind: 'awareness', states };
}

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

/**
 * A document's Yjs state as stored, the snapshot and the updates since, read in one statement so
 * that a compaction committing meanwhile cannot hide rows from both reads.
 */
export async function storedDoc(db: Database, documentId: string): Promise<Y.Doc> {
  const doc = new Y.Doc();
  const { rows } = await db.query<{ data: Uint8Array }>(
    `SELECT state AS data FROM document_yjs WHERE document_id = $1
     UNION ALL SELECT data FROM document_yjs_updates WHERE document_id = $1`,
    [documentId],
  );
  for (const { data } of rows) Y.applyUpdate(doc, data);
  return doc;
}
