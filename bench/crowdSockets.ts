import type { CollabTarget } from './collabClient.ts';
import { CrowdSocket } from './crowdClient.ts';
import { RENEW_MS } from './crowdLoad.ts';
import { cpuSnapshot, cpuSpent } from './processCpu.ts';
import { memoryOf } from './processMemory.ts';

/*
 * Many open sockets over many documents on one instance (collabCrowd): what each costs the server
 * in memory, and in CPU while its person only keeps their presence up.
 */

/** Sockets opened (`CROWD_SOCKETS`). */
export const SOCKETS = Number(process.env.CROWD_SOCKETS ?? 1000);
/** Documents they are spread over (`CROWD_SOCKET_DOCUMENTS`), the same number on each. */
export const SOCKET_DOCUMENTS = Number(process.env.CROWD_SOCKET_DOCUMENTS ?? 200);
/** How long the open sockets idle while their CPU is counted (`CROWD_IDLE_SECONDS`). */
export const IDLE_SECONDS = Number(process.env.CROWD_IDLE_SECONDS ?? 20);
/** Sockets opening at once. */
const ARRIVING = 50;
/** Time for the server's memory to settle (a store, a collection) before RSS is read. */
const SETTLE_MS = 3_000;

const sleep = (ms: number) => new Promise((wait) => setTimeout(wait, ms));

/** One server with the documents and sessions to open them. */
export interface SocketsSide {
  name: string;
  target: CollabTarget;
  /** The server's own process (memory is its resident size). */
  pid: number | undefined;
  /** Every process whose CPU it costs. */
  pids(): Promise<number[]>;
  /** Document `d`'s name. */
  document(d: number): string;
  /** The Cookie header of socket `s` of document `d` (undefined on the bare server). */
  cookie(d: number, s: number): string | undefined;
}

/** What the open sockets cost. */
export interface SocketsMeasured {
  /** Growth of the server's resident memory, per socket (its documents' share included). */
  bytesPerSocket: number;
  /** Server CPU per socket and second while the sockets idle with presence on. */
  cpuMsPerSocketSecond: number;
}

/**
 * Opens {@link SOCKETS} sockets, {@link SOCKET_DOCUMENTS} documents' worth, each publishing a
 * presence state (a name, no caret) renewed every {@link RENEW_MS}, as an open editor does; reads
 * the server's memory before and after, then counts its CPU for {@link IDLE_SECONDS}.
 */
export async function openSockets(
  side: SocketsSide,
  phase: (what: string) => void,
): Promise<SocketsMeasured> {
  const perDocument = Math.max(1, Math.round(SOCKETS / SOCKET_DOCUMENTS));
  const sockets: CrowdSocket[] = [];
  let renewal: NodeJS.Timeout | undefined;
  try {
    await sleep(SETTLE_MS);
    const before = memoryOf(side.pid).now;
    const opening: Array<{ d: number; s: number }> = [];
    for (let d = 0; d < SOCKET_DOCUMENTS; d++) {
      for (let s = 0; s < perDocument; s++) opening.push({ d, s });
    }
    for (let start = 0; start < opening.length; start += ARRIVING) {
      const arriving = opening.slice(start, start + ARRIVING).map(
        ({ d, s }) =>
          new CrowdSocket(side.target, side.document(d), {
            cookie: side.cookie(d, s),
            copy: false,
          }),
      );
      sockets.push(...arriving);
      await Promise.all(arriving.map((socket) => socket.synced));
    }
    const stateOf = (i: number) => ({
      user: { name: `Reader ${i}`, color: '#1d4ed8' },
      cursor: null,
    });
    sockets.forEach((socket, i) => socket.publish(i + 1, stateOf(i)));
    let second = 0;
    const every = RENEW_MS / 1000;
    renewal = setInterval(() => {
      second += 1;
      sockets.forEach((socket, i) => {
        if (i % every === second % every) socket.publish(i + 1, stateOf(i));
      });
    }, 1000);
    phase(`${sockets.length} sockets open`);
    await sleep(SETTLE_MS);
    const after = memoryOf(side.pid).now;
    const cpuBefore = cpuSnapshot(await side.pids());
    const started = performance.now();
    await sleep(IDLE_SECONDS * 1000);
    const cpuMs = cpuSpent(cpuBefore, cpuSnapshot(await side.pids()));
    const seconds = (performance.now() - started) / 1000;
    phase('idled');
    return {
      bytesPerSocket: (after - before) / sockets.length,
      cpuMsPerSocketSecond: cpuMs / sockets.length / seconds,
    };
  } finally {
    clearInterval(renewal);
    for (const socket of sockets) socket.close();
  }
}
