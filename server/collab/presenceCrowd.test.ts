import { afterEach, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import * as Y from 'yjs';
import type { DocumentRecord } from '../../common/api/documents.ts';
import {
  readPresenceSummary,
  type PresenceSummary,
} from '../../common/editor/collab/presenceSummary.ts';
import { describeWithServer, signedInUser } from '../test/testServer.ts';
import { shareWith } from '../test/users.ts';
import { CROWD_FROM, TICK_MS } from './presence.ts';
import { connectClient, cookieOf, until } from './test/collabClient.ts';
import { auth, presence, rawSocket, readPresence, syncStep1 } from './test/collabMessages.ts';
import { CONTENT_FIELD } from './yjsContent.ts';

/*
 * Presence in a crowded document over real sockets (presence.ts): each person is sent the caret
 * moves near theirs only, and a summary of everyone present.
 */

const open: WebSocket[] = [];
afterEach(() => {
  for (const socket of open.splice(0)) socket.terminate();
});

/** One person on a raw socket: their client id, and every awareness state and summary they got. */
interface Person {
  socket: WebSocket;
  id: number;
  received: Array<{ id: number; clock: number; state: unknown }>;
  summaries: PresenceSummary[];
}

describeWithServer('presence in a crowded document', (context) => {
  it('sends a person a near caret’s moves and not a far one’s, and a summary counting everyone', async () => {
    const { server, db } = context();
    const { client } = await signedInUser(server, db);
    const res = await client.request('POST', '/api/documents', {
      json: {
        title: 'Crowded',
        content: {
          type: 'doc',
          content: Array.from({ length: 200 }, (_, i) => ({
            type: 'paragraph',
            content: [{ type: 'text', text: `block ${i}` }],
          })),
        },
      },
    });
    const { document } = (await res.json()) as { document: DocumentRecord };
    // A synced copy holds the server's item ids, which carets are written with.
    const copy = connectClient(client.server.url, cookieOf(client), document.id);
    await copy.synced;
    copy.destroy();
    const caretAt = (block: number) => {
      const paragraph = copy.doc.getXmlFragment(CONTENT_FIELD).get(block) as Y.XmlElement;
      const head = Y.relativePositionToJSON(
        Y.createRelativePositionFromTypeIndex(paragraph.get(0) as Y.XmlText, 1),
      );
      return { anchor: head, head };
    };

    // Each person is an account of their own, as the names others see are the accounts'.
    const join = async (id: number, name: string, block: number): Promise<Person> => {
      let cookie = cookieOf(client);
      if (name !== 'Ada') {
        const other = await signedInUser(server, db, name);
        await shareWith(db, document.id, other.user.id, 'viewer');
        cookie = cookieOf(other.client);
      }
      const raw = await rawSocket(client.server.url, cookie);
      open.push(raw.socket);
      const joined: Person = { socket: raw.socket, id, received: [], summaries: [] };
      raw.socket.on('message', (data: Buffer) => {
        const message = readPresence(new Uint8Array(data));
        if (message?.kind === 'awareness') joined.received.push(...message.states);
        const summary = message?.kind === 'stateless' && readPresenceSummary(message.payload);
        if (summary) joined.summaries.push(summary);
      });
      raw.socket.send(auth(document.id));
      raw.socket.send(syncStep1(document.id));
      raw.socket.send(presence(document.id, [[id, { user: { name }, cursor: caretAt(block) }]]));
      return joined;
    };
    const ada = await join(1, 'Ada', 0);
    const near = await join(2, 'Near', 3);
    const far = await join(3, 'Far', 190);
    for (let i = 0; i < CROWD_FROM; i++) await join(100 + i, `Reader ${i}`, 100 + i);
    const everyone = CROWD_FROM + 3;
    await until(() => ada.summaries.some((summary) => summary.count === everyone));
    const summary = ada.summaries.at(-1)!;
    expect(summary.count).toBe(everyone);
    // Five others, never Ada herself nor Near, whose caret she is sent. (Which five depends on
    // the order the server read the sockets' first messages in.)
    const names = summary.faces.map((face) => face.name);
    expect(names).toHaveLength(5);
    expect(new Set(names).size).toBe(5);
    for (const name of names) expect(name).toMatch(/^(Far|Reader \d+)$/);

    far.socket.send(
      presence(document.id, [[far.id, { user: { name: 'Far' }, cursor: caretAt(191) }]], 2),
    );
    near.socket.send(
      presence(document.id, [[near.id, { user: { name: 'Near' }, cursor: caretAt(4) }]], 2),
    );
    await until(() => ada.received.some(({ id, clock }) => id === near.id && clock === 2));
    // Long enough for near carets to be chosen again twice.
    await new Promise((wait) => setTimeout(wait, 2 * TICK_MS + 100));
    expect(ada.received.filter(({ id, clock }) => id === far.id && clock >= 2)).toEqual([]);
  });
});
