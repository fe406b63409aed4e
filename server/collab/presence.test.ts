import { Document, type Connection } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Awareness, encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import {
  readPresenceSummary,
  type PresenceSummary,
} from '../../common/editor/collab/presenceSummary.ts';
import {
  CROWD_FLUSH_MS,
  CROWD_FROM,
  CROWD_UNTIL,
  FACES,
  NEAR_BLOCKS,
  NEAR_CARETS,
  TICK_MS,
  faceOf,
  firstOthers,
  nearestCarets,
  routePresence,
  topBlockOf,
  type PresenceRouter,
} from './presence.ts';
import { CONTENT_FIELD } from './yjsContent.ts';

/** A document of `blocks` paragraphs, the second of which is a list whose item holds one. */
function documentOf(blocks: number): Document {
  const document = new Document('doc');
  const fragment = document.getXmlFragment(CONTENT_FIELD);
  document.transact(() => {
    for (let i = 0; i < blocks; i++) {
      const paragraph = new Y.XmlElement('paragraph');
      paragraph.insert(0, [new Y.XmlText(`block ${i}`)]);
      if (i === 1) {
        const item = new Y.XmlElement('listItem');
        item.insert(0, [paragraph]);
        const list = new Y.XmlElement('bulletList');
        list.insert(0, [item]);
        fragment.insert(i, [list]);
      } else {
        fragment.insert(i, [paragraph]);
      }
    }
  });
  return document;
}

/** The text node of top-level block `index` (inside the list for block 1). */
function textIn(document: Y.Doc, index: number): Y.XmlText {
  let node = document.getXmlFragment(CONTENT_FIELD).get(index) as Y.XmlElement;
  while (!(node.get(0) instanceof Y.XmlText)) node = node.get(0) as Y.XmlElement;
  return node.get(0) as Y.XmlText;
}

/** An awareness caret at the start of top-level block `index`, as the editor publishes it. */
function caretAt(document: Y.Doc, index: number): { anchor: unknown; head: unknown } {
  const position = Y.relativePositionToJSON(
    Y.createRelativePositionFromTypeIndex(textIn(document, index), 0),
  );
  return { anchor: position, head: position };
}

describe('topBlockOf', () => {
  it('finds the top-level block of a caret, nested or not, counting only blocks still there', () => {
    const document = documentOf(10);
    expect(topBlockOf(document, caretAt(document, 0))).toBe(0);
    expect(topBlockOf(document, caretAt(document, 1))).toBe(1);
    const caret = caretAt(document, 7);
    expect(topBlockOf(document, caret)).toBe(7);
    document.getXmlFragment(CONTENT_FIELD).delete(2, 3);
    expect(topBlockOf(document, caret)).toBe(4);
  });

  it('reads a caret between blocks at the top level', () => {
    const document = documentOf(5);
    const fragment = document.getXmlFragment(CONTENT_FIELD);
    const between = Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(fragment, 3));
    expect(topBlockOf(document, { head: between })).toBe(3);
  });

  it('refuses what no editor sends, and creates no root type for a name', () => {
    const document = documentOf(3);
    for (const head of [
      { tname: 'other', item: null },
      { item: { client: 'x', clock: 0 } },
      { item: { client: 1, clock: Number.NaN } },
      { type: { client: -1, clock: 0 } },
      'text',
      null,
    ]) {
      expect(topBlockOf(document, { head })).toBeNull();
    }
    expect(topBlockOf(document, null)).toBeNull();
    expect([...document.share.keys()]).toEqual([CONTENT_FIELD]);
  });

  it('answers null for a position in changes the server does not have', () => {
    const document = documentOf(3);
    expect(topBlockOf(document, { head: { item: { client: 12345, clock: 9 } } })).toBeNull();
  });
});

describe('nearestCarets', () => {
  const sorted = [0, 2, 3, 10, 10, 40].map((block, id) => ({ id, block }));

  it('takes the nearest first, above before below on a tie, never one of the person’s own', () => {
    expect(nearestCarets(sorted, 3, new Set([2]), 3, 20)).toEqual([1, 0, 3]);
    expect(nearestCarets(sorted, 6, new Set(), 2, 20)).toEqual([2, 1]);
  });

  it('stops at the limit and at the distance', () => {
    expect(nearestCarets(sorted, 10, new Set(), 10, 7)).toEqual([3, 4, 2]);
    expect(nearestCarets(sorted, 100, new Set(), 10, 20)).toEqual([]);
    expect(nearestCarets([], 0, new Set())).toEqual([]);
  });
});

describe('faces', () => {
  it('shows a name and a colour the editor would, and a placeholder for the rest', () => {
    expect(faceOf({ user: { name: ' Ada ', color: '#112233' } })).toEqual({
      name: 'Ada',
      color: '#112233',
    });
    expect(faceOf({ user: { name: 'x'.repeat(500), color: 'red' } })).toEqual({
      name: 'x'.repeat(80),
    });
    expect(faceOf(null)).toEqual({ name: 'Someone' });
  });

  it('are the first others in arrival order, without the person and the carets they are sent', () => {
    const states = new Map([1, 2, 3, 4, 5, 6, 7, 8].map((id) => [id, {}]));
    expect(firstOthers(states, new Set([1]), new Set([3, 4]), 4)).toEqual([2, 5, 6, 7]);
  });
});

/** A connection as the document sees it, keeping what it is sent. */
interface FakeConnection {
  connection: Connection;
  /** Awareness updates received: client id to the state it holds (null once removed). */
  states: Map<number, unknown>;
  /** Client ids in each awareness message received, in order. */
  updates: number[][];
  summaries: PresenceSummary[];
}

function connectTo(document: Document): FakeConnection {
  const fake: FakeConnection = {
    connection: undefined!,
    states: new Map(),
    updates: [],
    summaries: [],
  };
  fake.connection = {
    messageAddress: document.name,
    send: (message: Uint8Array) => {
      const decoder = decoding.createDecoder(message);
      decoding.readVarString(decoder);
      const type = decoding.readVarUint(decoder);
      if (type === 5) {
        const summary = readPresenceSummary(decoding.readVarString(decoder));
        if (summary) fake.summaries.push(summary);
        return;
      }
      // Document updates (the content's first broadcast) are not presence.
      if (type !== 1) return;
      const update = decoding.createDecoder(decoding.readVarUint8Array(decoder));
      const ids: number[] = [];
      for (let n = decoding.readVarUint(update); n > 0; n--) {
        const id = decoding.readVarUint(update);
        decoding.readVarUint(update);
        fake.states.set(id, JSON.parse(decoding.readVarString(update)));
        ids.push(id);
      }
      fake.updates.push(ids);
    },
  } as unknown as Connection;
  document.addConnection(fake.connection);
  return fake;
}

/** One person: a connection and the awareness their editor publishes on it. */
interface Person extends FakeConnection {
  id: number;
  /** Publishes a caret at top-level block `block` (null: no caret). */
  moveTo(block: number | null): void;
  leave(): void;
}

function personOn(document: Document, id: number, name: string): Person {
  const fake = connectTo(document);
  const doc = new Y.Doc();
  doc.clientID = id;
  const awareness = new Awareness(doc);
  const publish = () =>
    document.applyAwarenessUpdate(fake.connection, encodeAwarenessUpdate(awareness, [id]));
  const person: Person = {
    ...fake,
    id,
    moveTo: (block) => {
      awareness.setLocalState({
        user: { name, color: '#123456' },
        cursor: block === null ? null : caretAt(document, block),
      });
      publish();
    },
    leave: () => {
      awareness.destroy();
      document.removeConnection(fake.connection);
    },
  };
  return person;
}

describe('routing presence', () => {
  let document: Document;
  let router: PresenceRouter;
  beforeEach(() => {
    vi.useFakeTimers();
    document = documentOf(300);
    // Each change sent at once, so that a test sees what one change caused.
    document.flushDelay = false;
    router = routePresence(document)!;
  });
  afterEach(() => {
    document.destroy();
    vi.useRealTimers();
  });

  /** `count` people with carets spread from block 100 on, far from the first ones added by tests. */
  function crowd(count: number, from = 100): Person[] {
    return Array.from({ length: count }, (_, i) => {
      const person = personOn(document, 1000 + i, `Crowd ${i}`);
      person.moveTo(from + ((i * 3) % 150));
      return person;
    });
  }

  it(`sends every change to everyone below ${CROWD_FROM} people`, () => {
    const ada = personOn(document, 1, 'Ada');
    ada.moveTo(0);
    const others = crowd(CROWD_FROM - 2);
    vi.advanceTimersByTime(TICK_MS);
    expect(router.crowded).toBe(false);
    others[0]!.updates.length = 0;
    others.at(-1)!.moveTo(250);
    expect(ada.states.get(others.at(-1)!.id)).toMatchObject({
      user: { name: `Crowd ${CROWD_FROM - 3}` },
    });
    expect(others[0]!.updates).toEqual([[others.at(-1)!.id]]);
    expect(ada.summaries.at(-1)).toEqual({ count: CROWD_FROM - 1, faces: [] });
  });

  it('in a crowd, sends a near caret’s moves and not a far one’s', () => {
    const ada = personOn(document, 1, 'Ada');
    ada.moveTo(0);
    const near = personOn(document, 2, 'Near');
    near.moveTo(3);
    const far = personOn(document, 3, 'Far');
    far.moveTo(250);
    crowd(CROWD_FROM);
    vi.advanceTimersByTime(TICK_MS);
    expect(router.crowded).toBe(true);
    ada.updates.length = 0;
    near.moveTo(4);
    far.moveTo(251);
    vi.advanceTimersByTime(CROWD_FLUSH_MS);
    expect(ada.updates).toEqual([[near.id]]);
    expect(topBlockOf(document, (ada.states.get(near.id) as { cursor: unknown }).cursor)).toBe(4);
  });

  it('sends a person their own changes back in a crowd: their provider must hear from the server', () => {
    const ada = personOn(document, 1, 'Ada');
    ada.moveTo(250);
    crowd(CROWD_FROM);
    vi.advanceTimersByTime(TICK_MS);
    ada.updates.length = 0;
    // A renewal: the same state, a new clock.
    ada.moveTo(250);
    vi.advanceTimersByTime(CROWD_FLUSH_MS);
    expect(ada.updates).toEqual([[ada.id]]);
  });

  it('sends a far caret that came near once, at the next choice, not at each move', () => {
    const ada = personOn(document, 1, 'Ada');
    ada.moveTo(0);
    const mover = personOn(document, 2, 'Mover');
    mover.moveTo(250);
    crowd(CROWD_FROM);
    vi.advanceTimersByTime(TICK_MS);
    ada.updates.length = 0;
    for (const block of [200, 100, 50, 10, 5]) mover.moveTo(block);
    vi.advanceTimersByTime(TICK_MS - 1);
    expect(ada.updates).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ada.updates).toEqual([[mover.id]]);
    expect(topBlockOf(document, (ada.states.get(mover.id) as { cursor: unknown }).cursor)).toBe(5);
  });

  it(`sends at most ${NEAR_CARETS} carets, none further than ${NEAR_BLOCKS} blocks`, () => {
    const ada = personOn(document, 1, 'Ada');
    ada.moveTo(0);
    // 40 people on blocks 0–39, everyone else far below.
    const around = Array.from({ length: 40 }, (_, i) => {
      const person = personOn(document, 10 + i, `Around ${i}`);
      person.moveTo(i);
      return person;
    });
    crowd(CROWD_FROM, 120);
    vi.advanceTimersByTime(TICK_MS);
    ada.updates.length = 0;
    for (const person of around) person.moveTo(person.id - 10);
    vi.advanceTimersByTime(CROWD_FLUSH_MS);
    const sent = ada.updates.flat();
    expect(sent).toHaveLength(NEAR_CARETS);
    expect(sent).toEqual(around.slice(0, NEAR_CARETS).map((person) => person.id));
  });

  it('sums up everyone present: the count, and the first faces of those whose carets are not sent', () => {
    const ada = personOn(document, 1, 'Ada');
    ada.moveTo(0);
    const near = personOn(document, 2, 'Near');
    near.moveTo(1);
    const reader = personOn(document, 3, 'Reader');
    reader.moveTo(null);
    const people = crowd(CROWD_FROM);
    vi.advanceTimersByTime(TICK_MS);
    const summary = ada.summaries.at(-1)!;
    expect(summary.count).toBe(CROWD_FROM + 3);
    expect(summary.faces).toEqual([
      { name: 'Reader', color: '#123456' },
      ...people.slice(0, FACES - 1).map((_, i) => ({ name: `Crowd ${i}`, color: '#123456' })),
    ]);
    // Sent again only when it changes.
    const sent = ada.summaries.length;
    vi.advanceTimersByTime(TICK_MS * 3);
    expect(ada.summaries).toHaveLength(sent);
    people.at(-1)!.leave();
    vi.advanceTimersByTime(TICK_MS);
    expect(ada.summaries.at(-1)!.count).toBe(CROWD_FROM + 2);
  });

  it('tells whoever holds a caret that its person left', () => {
    const ada = personOn(document, 1, 'Ada');
    ada.moveTo(0);
    const near = personOn(document, 2, 'Near');
    near.moveTo(2);
    crowd(CROWD_FROM);
    vi.advanceTimersByTime(TICK_MS);
    near.leave();
    vi.advanceTimersByTime(CROWD_FLUSH_MS);
    expect(ada.states.get(near.id)).toBeNull();
  });

  it(`sends what goes to everyone every ${CROWD_FLUSH_MS} ms in a crowd, and at once again after`, () => {
    const ada = personOn(document, 1, 'Ada');
    ada.moveTo(0);
    const near = personOn(document, 2, 'Near');
    near.moveTo(2);
    const people = crowd(CROWD_FROM);
    vi.advanceTimersByTime(TICK_MS);
    ada.updates.length = 0;
    near.moveTo(3);
    near.moveTo(4);
    vi.advanceTimersByTime(CROWD_FLUSH_MS - 1);
    expect(ada.updates).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ada.updates).toEqual([[near.id]]);
    for (const person of people) person.leave();
    vi.advanceTimersByTime(TICK_MS);
    expect(router.crowded).toBe(false);
    ada.updates.length = 0;
    near.moveTo(5);
    expect(ada.updates).toEqual([[near.id]]);
  });

  it('sends a connection that opens in a crowd only the carets near it', () => {
    crowd(CROWD_FROM + 5);
    vi.advanceTimersByTime(TICK_MS);
    const late = personOn(document, 1, 'Late');
    late.moveTo(100);
    expect(late.updates).toEqual([]);
    vi.advanceTimersByTime(TICK_MS);
    const sent = late.updates.flat();
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThanOrEqual(NEAR_CARETS);
  });

  it(`sends everyone every caret they lack once fewer than ${CROWD_UNTIL} remain`, () => {
    const ada = personOn(document, 1, 'Ada');
    ada.moveTo(0);
    const people = crowd(CROWD_FROM);
    vi.advanceTimersByTime(TICK_MS);
    for (const person of people.slice(CROWD_UNTIL - 2)) person.leave();
    people[0]!.moveTo(299);
    vi.advanceTimersByTime(TICK_MS);
    expect(router.crowded).toBe(false);
    for (const person of people.slice(0, CROWD_UNTIL - 2)) {
      expect(ada.states.get(person.id)).toMatchObject({ user: { name: expect.any(String) } });
    }
    expect(
      topBlockOf(document, (ada.states.get(people[0]!.id) as { cursor: unknown }).cursor),
    ).toBe(299);
  });
});
