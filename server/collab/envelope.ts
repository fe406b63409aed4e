import { IncomingMessage, MessageType } from '@hocuspocus/server';

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
