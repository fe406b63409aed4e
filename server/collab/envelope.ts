import { IncomingMessage, MessageType } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';

/**
 * The document name of a binary frame that opens as every Hocuspocus message does (the document
 * name and the message type, and for an authentication its sub-type and token), or null. Hocuspocus closes a socket
 * whose frame it cannot read this far with 4401 (its "Unauthorized") or 4205, which the client
 * would take for a session that ended or a reset; such a frame is malformed input, refused with
 * 1008 like any other (docs/ARCHITECTURE.md "Live collaboration"). What follows the envelope is
 * read by Hocuspocus and checked by the schema guard.
 */
export function envelopeName(data: Uint8Array): string | null {
  try {
    const message = new IncomingMessage(data);
    const name = message.readVarString();
    const type = message.readVarUint();
    if (type === MessageType.Auth) {
      message.readVarUint();
      message.readVarString();
      // The provider's version, which newer providers send after the token.
      if (message.decoder.pos < message.decoder.arr.length) message.readVarString();
    }
    return name;
  } catch {
    return null;
  }
}

/** The longest presence (awareness) state one client may publish, as JSON text. */
export const MAX_PRESENCE_STATE_CHARS = 16 * 1024;

/**
 * Why a presence (awareness) message from a client is refused, null if it is not. The provider
 * publishes its own state only (others' appear as removals, which hold none), under one client
 * id for the life of its connection (`ids`, by document name), and a caret and a name are small:
 * one message could otherwise hold thousands of states, kept and sent to every reader until
 * they time out, or speak for another writer's client id.
 */
export function presenceProblem(data: Uint8Array, ids: Map<string, number>): string | null {
  const message = new IncomingMessage(data);
  const name = message.readVarString();
  if (message.readVarUint() !== MessageType.Awareness) return null;
  try {
    const update = decoding.createDecoder(message.readVarUint8Array());
    const count = decoding.readVarUint(update);
    let states = 0;
    for (let i = 0; i < count; i++) {
      const id = decoding.readVarUint(update);
      decoding.readVarUint(update);
      const state = decoding.readVarString(update);
      if (state === 'null') continue;
      states += 1;
      if (states > 1) return 'A presence update holds the states of several clients.';
      if (state.length > MAX_PRESENCE_STATE_CHARS) return 'A presence state is too large.';
      const known = ids.get(name);
      if (known !== undefined && known !== id) return 'A presence update changes its client id.';
      ids.set(name, id);
    }
    return null;
  } catch {
    return 'A presence update is not readable.';
  }
}
