import { OutgoingMessage, type Connection, type Document } from '@hocuspocus/server';
import * as Y from 'yjs';
import {
  MAX_FACE_NAME,
  presenceSummaryPayload,
  type PresenceFace,
} from '../../common/editor/collab/presenceSummary.ts';
import { CONTENT_FIELD } from './yjsContent.ts';

/*
 * Presence in a crowded document (docs/ARCHITECTURE.md "Live collaboration", "Presence").
 * Hocuspocus sends every awareness change to every connection of a document: with a thousand
 * people, each caret move is a thousand messages, and every person's page decodes and draws the
 * other 999 carets. From CROWD_FROM states on, each person is sent the states of the carets near
 * their own (at most NEAR_CARETS, within NEAR_BLOCKS top-level blocks), chosen again every
 * TICK_MS; far carets' moves are not sent at all, a far person shows up once they come near.
 * Everyone gets a summary of who is present (a count and the first faces of the rest) as a
 * stateless message, sent when it changes, checked every TICK_MS. In a crowd, what is sent to
 * everyone goes out every CROWD_FLUSH_MS at most. Below the crowd nothing changes but the summary.
 */

/** States in a document from which carets are sent by nearness. */
export const CROWD_FROM = 30;
/** States below which a crowded document goes back to sending every change to everyone. */
export const CROWD_UNTIL = 25;
/** The most carets one person is sent in a crowd. */
export const NEAR_CARETS = 20;
/** How far (in top-level blocks) a caret may be from a person's to be near theirs. */
export const NEAR_BLOCKS = 20;
/** How often near carets are chosen again and summaries sent when they changed. */
export const TICK_MS = 500;
/**
 * Hocuspocus's `flushDelay` in a crowd: the document's updates and presence changes of this long
 * go out together. Each broadcast is a write to every socket; at a hundred keys a second into a
 * thousand sockets the server's time went to those writes, and each page was woken as often.
 */
export const CROWD_FLUSH_MS = 25;
/** Faces in a summary. */
export const FACES = 5;
/** How long a caret's block is trusted while the caret stays put (blocks above it may change). */
const BLOCK_TTL_MS = 2_000;

/** A caret as resolved: the client and its top-level block. */
export interface Located {
  id: number;
  block: number;
}

/** The awareness fields presence reads; anything else a client publishes is passed on as is. */
interface PresenceState {
  user?: { name?: unknown; color?: unknown };
  cursor?: { head?: unknown } | null;
}

const INTEGER = (value: unknown): value is number =>
  Number.isSafeInteger(value) && Number(value) >= 0;
const isId = (value: unknown): boolean => {
  const id = value as { client?: unknown; clock?: unknown } | null;
  return typeof id === 'object' && id !== null && INTEGER(id.client) && INTEGER(id.clock);
};

/**
 * The index of the top-level block holding a caret (the `head` of an awareness `cursor`, a Yjs
 * relative position as JSON), or null. Another client's JSON is checked first: a relative
 * position may name a root type, and reading it would create that type in the document.
 */
export function topBlockOf(doc: Y.Doc, cursor: unknown): number | null {
  const head = (cursor as { head?: unknown } | null | undefined)?.head as
    { item?: unknown; type?: unknown; tname?: unknown; assoc?: unknown } | undefined;
  if (typeof head !== 'object' || head === null) return null;
  if (head.item != null && !isId(head.item)) return null;
  if (head.type != null && !isId(head.type)) return null;
  if (head.tname != null && head.tname !== CONTENT_FIELD) return null;
  if (head.assoc != null && !Number.isSafeInteger(head.assoc)) return null;
  try {
    const absolute = Y.createAbsolutePositionFromRelativePosition(
      Y.createRelativePositionFromJSON(head),
      doc,
    );
    if (!absolute) return null;
    const fragment = doc.getXmlFragment(CONTENT_FIELD);
    if (absolute.type === fragment) return absolute.index;
    let type: Y.AbstractType<unknown> = absolute.type;
    while (type._item && type._item.parent !== fragment) {
      type = type._item.parent as Y.AbstractType<unknown>;
    }
    const top = type._item;
    if (!top || top.parent !== fragment) return null;
    let index = 0;
    for (let item = top.left; item; item = item.left) {
      if (!item.deleted && item.countable) index += item.length;
    }
    return index;
  } catch {
    return null;
  }
}

/**
 * The clients of `sorted` (carets by block, ascending) nearest `block`: at most `limit`, none
 * further than `maxDistance` blocks, none of `own`; nearest first, above before below on a tie.
 */
export function nearestCarets(
  sorted: readonly Located[],
  block: number,
  own: ReadonlySet<number>,
  limit = NEAR_CARETS,
  maxDistance = NEAR_BLOCKS,
): number[] {
  let high = 0;
  let top = sorted.length;
  while (high < top) {
    const middle = (high + top) >> 1;
    if (sorted[middle]!.block < block) high = middle + 1;
    else top = middle;
  }
  let low = high - 1;
  const near: number[] = [];
  while (near.length < limit) {
    const above = sorted[low];
    const below = sorted[high];
    const aboveDistance = above ? block - above.block : Infinity;
    const belowDistance = below ? below.block - block : Infinity;
    const takeAbove = aboveDistance <= belowDistance;
    const next = takeAbove ? above : below;
    if (!next || Math.min(aboveDistance, belowDistance) > maxDistance) break;
    if (takeAbove) low -= 1;
    else high += 1;
    if (!own.has(next.id)) near.push(next.id);
  }
  return near;
}

/** The face a state shows: its `user` name (cut to length) and colour when it is one. */
export function faceOf(state: unknown): PresenceFace {
  const user = (state as PresenceState | null)?.user;
  const name = typeof user?.name === 'string' && user.name.trim() ? user.name.trim() : 'Someone';
  const face: PresenceFace = { name: name.slice(0, MAX_FACE_NAME) };
  if (typeof user?.color === 'string' && /^#[0-9a-fA-F]{6}$/.test(user.color)) {
    face.color = user.color;
  }
  return face;
}

/**
 * The first `limit` clients of `states` (in their order: arrival) that are neither `own` nor
 * `shown` (the carets a person is sent).
 */
export function firstOthers(
  states: ReadonlyMap<number, unknown>,
  own: ReadonlySet<number>,
  shown: ReadonlySet<number>,
  limit = FACES,
): number[] {
  const others: number[] = [];
  for (const id of states.keys()) {
    if (others.length >= limit) break;
    if (!own.has(id) && !shown.has(id)) others.push(id);
  }
  return others;
}

/** One person's connection to the document and what presence has sent it. */
interface Recipient {
  connection: Connection;
  /** In a crowd: the awareness clock of each client whose state it was sent last. */
  sent: Map<number, number>;
  /** In a crowd: the clients whose caret changes it is sent. */
  near: Set<number>;
  /** The last summary payload sent to it. */
  summary: string;
}

/** The two methods of Hocuspocus's Document (4.7) through which awareness leaves it. */
interface AwarenessExits {
  broadcastAwarenessUpdate(clients: number[]): void;
  hasAwarenessStates(): boolean;
}

/** Routes one document's presence; made by {@link routePresence}. */
export class PresenceRouter {
  private crowd = false;
  /** The document's own `flushDelay`, given back when the crowd is gone. */
  private flushDelay: Document['flushDelay'];
  private readonly recipients = new Map<Connection, Recipient>();
  /** For each client, the recipients whose near carets include it. */
  private readonly watchers = new Map<number, Set<Recipient>>();
  /** For each client, the recipients that were sent its state: told when it leaves. */
  private readonly holders = new Map<number, Set<Recipient>>();
  /** The recipient each client publishes through, as of the last tick. */
  private readonly owners = new Map<number, Recipient>();
  private readonly blocks = new Map<
    number,
    { cursor: unknown; block: number | null; at: number }
  >();

  constructor(
    private readonly document: Document,
    /** Hocuspocus's own send of awareness changes to every connection. */
    private readonly broadcast: (clients: number[]) => void,
  ) {
    this.flushDelay = document.flushDelay;
  }

  /** Whether carets are being sent by nearness. */
  get crowded(): boolean {
    return this.crowd;
  }

  /** Sends awareness changes of `changed` clients: to everyone, or in a crowd to those near. */
  route(changed: number[]): void {
    if (!this.crowd) {
      this.broadcast(changed);
      return;
    }
    const { awareness } = this.document;
    const states = awareness.getStates();
    const out = new Map<Recipient, number[]>();
    const add = (recipient: Recipient, id: number) => {
      const ids = out.get(recipient);
      if (ids) ids.push(id);
      else out.set(recipient, [id]);
    };
    for (const id of changed) {
      if (!states.has(id)) {
        // Gone: whoever holds its state is told, so its caret leaves their page.
        for (const recipient of this.holders.get(id) ?? []) {
          recipient.sent.delete(id);
          add(recipient, id);
        }
        for (const recipient of this.watchers.get(id) ?? []) recipient.near.delete(id);
        this.holders.delete(id);
        this.watchers.delete(id);
        this.blocks.delete(id);
        continue;
      }
      const clock = awareness.meta.get(id)?.clock ?? 0;
      for (const recipient of this.watchers.get(id) ?? []) {
        if (this.markSent(recipient, id, clock)) add(recipient, id);
      }
      // Its own state goes back to its publisher, as Hocuspocus sends every change to everyone:
      // the provider reconnects after 30 s without a message, and a reader far from every caret
      // in a quiet document would hear nothing else (a state is renewed every 15 s).
      const owner = this.owners.get(id);
      if (owner && this.markSent(owner, id, clock)) add(owner, id);
    }
    this.sendStates(out);
  }

  /** Whether a connection opening now is sent every state at once (Hocuspocus's own). */
  sendsEveryStateOnOpen(): boolean {
    return !this.crowd;
  }

  /**
   * Every {@link TICK_MS}: follows connections come and gone, turns the crowd on or off, chooses
   * each person's near carets again (sending the states of those newly near), and sends each
   * person their summary when it changed.
   */
  tick(now = Date.now()): void {
    const { document } = this;
    const states = document.awareness.getStates();
    for (const [connection, recipient] of this.recipients) {
      if (document.hasConnection(connection)) continue;
      this.recipients.delete(connection);
      for (const id of recipient.near) this.watchers.get(id)?.delete(recipient);
      for (const id of recipient.sent.keys()) this.holders.get(id)?.delete(recipient);
    }
    for (const connection of document.getConnections()) {
      if (!this.recipients.has(connection)) {
        this.recipients.set(connection, {
          connection,
          sent: new Map(),
          near: new Set(),
          summary: '',
        });
      }
    }
    this.owners.clear();
    for (const recipient of this.recipients.values()) {
      for (const id of document.getClients(recipient.connection)) this.owners.set(id, recipient);
    }
    if (!this.crowd && states.size >= CROWD_FROM) this.enterCrowd();
    else if (this.crowd && states.size < CROWD_UNTIL) this.leaveCrowd();
    if (this.crowd) this.chooseNear(now);
    this.sendSummaries();
  }

  /** Everyone holds every state (Hocuspocus sent each change to all): recorded as sent. */
  private enterCrowd(): void {
    this.crowd = true;
    this.flushDelay = this.document.flushDelay;
    this.document.flushDelay = CROWD_FLUSH_MS;
    const { awareness } = this.document;
    for (const recipient of this.recipients.values()) {
      for (const id of awareness.getStates().keys()) {
        this.markSent(recipient, id, awareness.meta.get(id)?.clock ?? 0);
      }
    }
  }

  /** Back to everyone seeing every caret: each person is sent the states they lack. */
  private leaveCrowd(): void {
    this.crowd = false;
    this.document.flushDelay = this.flushDelay;
    const { awareness } = this.document;
    const out = new Map<Recipient, number[]>();
    for (const recipient of this.recipients.values()) {
      const own = this.document.getClients(recipient.connection);
      const lacking = [...awareness.getStates().keys()].filter(
        (id) =>
          !own.has(id) && (recipient.sent.get(id) ?? -1) < (awareness.meta.get(id)?.clock ?? 0),
      );
      if (lacking.length > 0) out.set(recipient, lacking);
      recipient.sent.clear();
      recipient.near.clear();
    }
    this.watchers.clear();
    this.holders.clear();
    this.sendStates(out);
  }

  /** Records that `recipient` is sent client `id`'s state at `clock`; false if it has it already. */
  private markSent(recipient: Recipient, id: number, clock: number): boolean {
    if ((recipient.sent.get(id) ?? -1) >= clock) return false;
    recipient.sent.set(id, clock);
    let holding = this.holders.get(id);
    if (!holding) this.holders.set(id, (holding = new Set()));
    holding.add(recipient);
    return true;
  }

  /** The block of client `id`'s caret, from cache while its cursor is the same and recent. */
  private blockOf(id: number, state: unknown, now: number): number | null {
    const cursor = (state as PresenceState | null)?.cursor;
    if (!cursor) return null;
    const cached = this.blocks.get(id);
    if (cached && cached.cursor === cursor && now - cached.at < BLOCK_TTL_MS) return cached.block;
    const block = topBlockOf(this.document, cursor);
    this.blocks.set(id, { cursor, block, at: now });
    return block;
  }

  private chooseNear(now: number): void {
    const { awareness } = this.document;
    const located: Located[] = [];
    const blockById = new Map<number, number>();
    for (const [id, state] of awareness.getStates()) {
      const block = this.blockOf(id, state, now);
      if (block === null) continue;
      located.push({ id, block });
      blockById.set(id, block);
    }
    located.sort((a, b) => a.block - b.block);
    const out = new Map<Recipient, number[]>();
    for (const recipient of this.recipients.values()) {
      const own = this.document.getClients(recipient.connection);
      // A person without a caret (reading, not focused) is taken to be at the top, where a page opens.
      let mine = 0;
      for (const id of own) mine = blockById.get(id) ?? mine;
      const near = new Set(nearestCarets(located, mine, own));
      for (const id of recipient.near) {
        if (!near.has(id)) this.watchers.get(id)?.delete(recipient);
      }
      const newlyNear: number[] = [];
      for (const id of near) {
        if (recipient.near.has(id)) continue;
        let watching = this.watchers.get(id);
        if (!watching) this.watchers.set(id, (watching = new Set()));
        watching.add(recipient);
        if (this.markSent(recipient, id, awareness.meta.get(id)?.clock ?? 0)) newlyNear.push(id);
      }
      recipient.near = near;
      if (newlyNear.length > 0) out.set(recipient, newlyNear);
    }
    this.sendStates(out);
  }

  private sendSummaries(): void {
    const states = this.document.awareness.getStates();
    const payloads = new Map<string, string>();
    for (const recipient of this.recipients.values()) {
      const own = this.document.getClients(recipient.connection);
      // Outside a crowd every state is sent: none is left for the faces.
      const faces = this.crowd ? firstOthers(states, own, recipient.near) : [];
      const key = faces.join(',');
      let payload = payloads.get(key);
      if (payload === undefined) {
        payload = presenceSummaryPayload({
          count: states.size,
          faces: faces.map((id) => faceOf(states.get(id))),
        });
        payloads.set(key, payload);
      }
      if (payload === recipient.summary) continue;
      recipient.summary = payload;
      recipient.connection.send(
        new OutgoingMessage(recipient.connection.messageAddress)
          .writeStateless(payload)
          .toUint8Array(),
      );
    }
  }

  /** Sends each recipient the states of its clients; one encoding per distinct list and address. */
  private sendStates(out: ReadonlyMap<Recipient, number[]>): void {
    const encoded = new Map<string, Uint8Array>();
    for (const [recipient, ids] of out) {
      const address = recipient.connection.messageAddress;
      const key = `${address}\n${ids.join(',')}`;
      let message = encoded.get(key);
      if (!message) {
        message = new OutgoingMessage(address)
          .createAwarenessUpdateMessage(this.document.awareness, ids)
          .toUint8Array();
        encoded.set(key, message);
      }
      recipient.connection.send(message);
    }
  }
}

/**
 * Puts `document`'s presence through a {@link PresenceRouter} until it is destroyed: Hocuspocus's
 * broadcast of awareness changes goes through the router, as does its sending every state to a
 * connection that opens. Null (and Hocuspocus's own behaviour kept) if its Document no longer
 * has those methods.
 */
export function routePresence(document: Document): PresenceRouter | null {
  const exits = document as unknown as AwarenessExits;
  if (
    typeof exits.broadcastAwarenessUpdate !== 'function' ||
    typeof exits.hasAwarenessStates !== 'function'
  ) {
    return null;
  }
  const broadcast = exits.broadcastAwarenessUpdate.bind(document);
  const hasStates = exits.hasAwarenessStates.bind(document);
  const router = new PresenceRouter(document, broadcast);
  exits.broadcastAwarenessUpdate = (clients) => router.route(clients);
  // Only Connection's opening asks this; in a crowd the next tick sends the near carets instead.
  exits.hasAwarenessStates = () => router.sendsEveryStateOnOpen() && hasStates();
  const timer = setInterval(() => router.tick(), TICK_MS);
  timer.unref();
  document.on('destroy', () => clearInterval(timer));
  return router;
}
