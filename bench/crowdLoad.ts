import * as Y from 'yjs';
import type { DocumentContent } from '../common/api/documents.ts';
import { readPresenceSummary } from '../common/editor/collab/presenceSummary.ts';
import { seededRandom } from '../common/test/seededRandom.ts';
import { CONTENT_FIELD, insertParagraph, textOf, type CollabTarget } from './collabClient.ts';
import { jsonParagraphs, missing, until } from './collabLoad.ts';
import { CrowdSocket } from './crowdClient.ts';
import { cpuSnapshot, cpuSpent } from './processCpu.ts';

/*
 * One document, many people (collabCrowd): people on raw sockets (crowdClient.ts), a few typing,
 * a sample of observers timing each keystroke into their copy, everyone else only receiving.
 */

/** People in the document (`CROWD_PEOPLE`). */
export const PEOPLE = Number(process.env.CROWD_PEOPLE ?? 1000);
/** Of them, typing (`CROWD_TYPISTS`), each into a paragraph of their own. */
export const TYPISTS = Number(process.env.CROWD_TYPISTS ?? 50);
/** Of them, decoding every update to time keystrokes (`CROWD_OBSERVERS`). */
export const OBSERVERS = Number(process.env.CROWD_OBSERVERS ?? 50);
/** Keys each typist types a second. */
export const KEYS_PER_SECOND = 2;
/** How long they type (`CROWD_SECONDS`). */
export const SECONDS = Number(process.env.CROWD_SECONDS ?? 30);
/** A presence state is published again this often, as y-protocols' Awareness renews it. */
export const RENEW_MS = 15_000;
/** Sockets opening at once while the crowd arrives. */
const ARRIVING = 50;
/** Longest wait for every key to be acknowledged and in every observer's copy. */
const DRAIN_MS = 60_000;

const sleep = (ms: number) => new Promise((wait) => setTimeout(wait, ms));

/** One side of the comparison: where the crowd connects, and how. */
export interface CrowdSide {
  name: string;
  /** One target per instance; person `i` connects to `targets[i % targets.length]`. */
  targets: CollabTarget[];
  document: string;
  /** The Cookie header of person `i` (undefined on the bare server). */
  cookie(i: number): string | undefined;
  /** Whether people publish presence (a name, a colour, a caret), renewed every {@link RENEW_MS}. */
  presence: boolean;
  /** The processes whose CPU the side costs. */
  pids(): Promise<number[]>;
  /** The content the server stored, when it stores any. */
  stored?(): Promise<DocumentContent>;
}

/** What the crowd measured on one side. */
export interface CrowdMeasured {
  cpuMs: number;
  elapsedMs: number;
  typed: number;
  /** Each key from its press to its arrival in each observer's copy. */
  latencies: number[];
  /** The same, for typist and observer on different instances only. */
  crossLatencies: number[];
  /** Keys missing: in the observers' copies, a fresh copy's, the stored content. */
  lost: { observers: number; fresh: number; stored: number };
  /** Awareness states an observer received a second while the others typed, on average. */
  statesPerSecond: number;
  /** Messages a person who only receives got a second while the others typed, on average. */
  messagesPerSecond: number;
  /** The count of the last presence summary an observer got (NaN without one). */
  summaryCount: number;
  /** CPU of this (the load's) process while typing, for the reader to judge the machine. */
  clientCpuMs: number;
}

interface Typist {
  socket: CrowdSocket;
  clientId: number;
  marker: string;
  text?: Y.XmlText;
  typed: string;
  /** When each key was pressed, by its index in `typed`. */
  pressed: number[];
}

/** The paragraph text of a copy that starts with `marker`, if it arrived. */
function markedText(doc: Y.Doc, marker: string): Y.XmlText | undefined {
  for (const block of doc.getXmlFragment(CONTENT_FIELD).toArray()) {
    if (!(block instanceof Y.XmlElement) || block.nodeName !== 'paragraph') continue;
    const text = block.get(0);
    if (text instanceof Y.XmlText && textOf(block).startsWith(marker)) return text;
  }
  return undefined;
}

/** Keys of `typists` missing in `doc`. */
function lostIn(typists: readonly Typist[], doc: Y.Doc): number {
  return typists.reduce((sum, typist) => {
    const text = markedText(doc, typist.marker)?.toString();
    return sum + missing(typist.typed, text?.slice(typist.marker.length));
  }, 0);
}

/** Top-level caret of a person at block `block`, as relative positions of `doc` (the server's ids). */
function caretAt(doc: Y.Doc, block: number): { anchor: unknown; head: unknown } {
  const fragment = doc.getXmlFragment(CONTENT_FIELD);
  const position = Y.relativePositionToJSON(
    Y.createRelativePositionFromTypeIndex(fragment, Math.min(block, fragment.length)),
  );
  return { anchor: position, head: position };
}

/** The caret at the end of a typist's paragraph. */
function caretAtEnd(text: Y.XmlText): { anchor: unknown; head: unknown } {
  const position = Y.relativePositionToJSON(
    Y.createRelativePositionFromTypeIndex(text, text.length),
  );
  return { anchor: position, head: position };
}

/**
 * The crowd on `side`: {@link PEOPLE} arrive; with presence each publishes a name and a caret at
 * a random block; {@link TYPISTS} add a paragraph each and type {@link KEYS_PER_SECOND} keys a
 * second into it for {@link SECONDS} s (their caret moving with each key), while
 * {@link OBSERVERS} time each key's arrival in their copy. Then everything is drained and every
 * copy checked for every key.
 */
export async function crowdLoad(
  side: CrowdSide,
  phase: (what: string) => void,
): Promise<CrowdMeasured> {
  const random = seededRandom(23);
  const people: CrowdSocket[] = [];
  const timers: NodeJS.Timeout[] = [];
  const latencies: number[] = [];
  const crossLatencies: number[] = [];
  let states = 0;
  let summaryCount = Number.NaN;
  const instances = side.targets.length;
  try {
    for (let start = 0; start < PEOPLE; start += ARRIVING) {
      const arriving: CrowdSocket[] = [];
      for (let i = start; i < Math.min(PEOPLE, start + ARRIVING); i++) {
        const observer = i >= TYPISTS && i < TYPISTS + OBSERVERS;
        const socket = new CrowdSocket(side.targets[i % instances]!, side.document, {
          cookie: side.cookie(i),
          copy: i < TYPISTS + OBSERVERS,
          ...(observer
            ? {
                onPresence: (message) => {
                  if (message.kind === 'awareness') states += message.states.length;
                  else summaryCount = readPresenceSummary(message.payload)?.count ?? summaryCount;
                },
              }
            : {}),
        });
        arriving.push(socket);
        people.push(socket);
      }
      await Promise.all(arriving.map((socket) => socket.synced));
    }
    phase(`${PEOPLE} people connected`);
    const reference = people[TYPISTS]?.doc ?? people[0]!.doc!;
    const blocks = reference.getXmlFragment(CONTENT_FIELD).length;
    const clientId = (i: number) => i + 1;
    const stateOf = (i: number, cursor: unknown) => ({
      user: { name: `Person ${i}`, color: `#${(0x204060 + i * 7919).toString(16).slice(-6)}` },
      cursor,
    });
    const carets = people.map(() => caretAt(reference, Math.floor(random() * blocks)));
    // Renewals (or, without presence, keep-alives) spread over the renewal interval.
    let second = 0;
    const renewAll = (every: number) => {
      people.forEach((socket, i) => {
        if (i % every !== second % every) return;
        if (side.presence) socket.publish(clientId(i), stateOf(i, carets[i]));
        else socket.keepAlive();
      });
    };
    if (side.presence)
      people.forEach((socket, i) => socket.publish(clientId(i), stateOf(i, carets[i])));
    timers.push(
      setInterval(() => {
        second += 1;
        renewAll(RENEW_MS / 1000);
      }, 1000),
    );

    const typists: Typist[] = people.slice(0, TYPISTS).map((socket, k) => ({
      socket,
      clientId: clientId(k),
      marker: `t${k}:`,
      typed: '',
      pressed: [],
    }));
    for (const typist of typists) {
      typist.text = insertParagraph(
        typist.socket.doc!,
        Math.floor(random() * blocks),
        typist.marker,
      );
    }
    const observers = people.slice(TYPISTS, TYPISTS + OBSERVERS);
    const arrived = await until(
      () => observers.every((o) => typists.every((t) => markedText(o.doc!, t.marker))),
      60_000,
    );
    if (!arrived) throw new Error('The typists’ paragraphs did not reach every observer.');
    await until(() => typists.every((typist) => typist.socket.saved), 60_000);
    for (const [o, observer] of observers.entries()) {
      const index = TYPISTS + o;
      for (const [k, typist] of typists.entries()) {
        const text = markedText(observer.doc!, typist.marker)!;
        let seen = text.length - typist.marker.length;
        const cross = index % instances !== k % instances;
        text.observe(() => {
          const now = performance.now();
          const length = text.length - typist.marker.length;
          for (; seen < length; seen++) {
            const pressed = typist.pressed[seen];
            if (pressed === undefined) continue;
            latencies.push(now - pressed);
            if (cross) crossLatencies.push(now - pressed);
          }
        });
      }
    }
    await sleep(2_000);

    phase(`paragraphs in every copy; ${TYPISTS} typing`);
    states = 0;
    const receivers = people.slice(TYPISTS + OBSERVERS);
    const received = () => receivers.reduce((sum, socket) => sum + socket.messages, 0);
    const receivedBefore = received();
    const cpuBefore = cpuSnapshot(await side.pids());
    const clientBefore = process.cpuUsage();
    const started = performance.now();
    typists.forEach((typist, k) => {
      const press = () => {
        const char = String.fromCharCode(97 + ((typist.typed.length + k) % 26));
        typist.pressed.push(performance.now());
        typist.typed += char;
        typist.text!.insert(typist.text!.length, char);
        if (side.presence) {
          typist.socket.publish(typist.clientId, stateOf(k, caretAtEnd(typist.text!)));
        }
      };
      // Spread over the interval, so that the typists do not press their keys in step.
      const start = setTimeout(
        () => timers.push(setInterval(press, 1000 / KEYS_PER_SECOND)),
        random() * (1000 / KEYS_PER_SECOND),
      );
      timers.push(start);
    });
    await sleep(SECONDS * 1000);
    // The typists stop; presence goes on renewing (it keeps the sockets open while they drain).
    for (const timer of timers.splice(1)) clearInterval(timer);
    const elapsedMs = performance.now() - started;
    const cpuMs = cpuSpent(cpuBefore, cpuSnapshot(await side.pids()));
    const client = process.cpuUsage(clientBefore);
    const statesPerSecond = (states * 1000) / elapsedMs / Math.max(1, observers.length);
    const messagesPerSecond =
      ((received() - receivedBefore) * 1000) / elapsedMs / Math.max(1, receivers.length);

    phase('typing stopped');
    await until(
      () =>
        typists.every((typist) => typist.socket.saved) &&
        observers.every((observer) => lostIn(typists, observer.doc!) === 0),
      DRAIN_MS,
    );
    const lost = {
      observers: observers.reduce((sum, observer) => sum + lostIn(typists, observer.doc!), 0),
      fresh: 0,
      stored: 0,
    };
    const fresh = new CrowdSocket(side.targets[0]!, side.document, {
      cookie: side.cookie(0),
      copy: true,
    });
    try {
      await fresh.synced;
      lost.fresh = lostIn(typists, fresh.doc!);
    } finally {
      fresh.close();
    }
    if (side.stored) {
      const paragraphs = jsonParagraphs(await side.stored());
      lost.stored = typists.reduce((sum, typist) => {
        const text = paragraphs.find((p) => p.startsWith(typist.marker));
        return sum + missing(typist.typed, text?.slice(typist.marker.length));
      }, 0);
    }
    phase('drained and checked');
    return {
      cpuMs,
      elapsedMs,
      typed: typists.reduce((sum, typist) => sum + typist.typed.length, 0),
      latencies,
      crossLatencies,
      lost,
      statesPerSecond,
      messagesPerSecond,
      summaryCount,
      clientCpuMs: (client.user + client.system) / 1000,
    };
  } finally {
    for (const timer of timers) clearInterval(timer);
    for (const socket of people) socket.close();
  }
}
