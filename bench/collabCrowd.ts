import type { DocumentContent, DocumentResponse } from '../common/api/documents.ts';
import type { Database } from '../server/db/database.ts';
import {
  KIND_NAMES,
  seedOwners,
  shareDocument,
  startBare,
  startInkwell,
  type Inkwell,
  type Kind,
  type Owner,
} from './collabServers.ts';
import { accessCost, ACCESS_ROUNDS, type AccessMeasured } from './crowdAccess.ts';
import {
  crowdLoad,
  KEYS_PER_SECOND,
  OBSERVERS,
  PEOPLE,
  RENEW_MS,
  SECONDS,
  TYPISTS,
  type CrowdMeasured,
  type CrowdSide,
} from './crowdLoad.ts';
import {
  IDLE_SECONDS,
  openSockets,
  SOCKET_DOCUMENTS,
  SOCKETS,
  type SocketsMeasured,
} from './crowdSockets.ts';
import type { Fixtures } from './fixtures.ts';
import { printFigures, type BenchReport, type Figure } from './report.ts';
import { proseOfSize } from './seedWriters.ts';
import { formatBytes, formatMs, median, p95 } from './stats.ts';

const NAME = 'collabCrowd';
const BASELINE = 'bare Hocuspocus';
/** The crowd's document: ~50 kB of prose, about seventy top-level blocks. */
const CROWD_DOCUMENT_BYTES = 50_000;
/** Each of the many documents the sockets open. */
const SOCKET_DOCUMENT_BYTES = 10_000;
/**
 * `CROWD_BARE_PRESENCE=1` also runs the crowd on bare Hocuspocus with presence on, every caret
 * move sent to everyone: what the presence design saves, printed, not a figure.
 */
const BARE_PRESENCE = process.env.CROWD_BARE_PRESENCE === '1';

/** The people of the crowd as seeded: the owner, and everyone else with a session each. */
interface CrowdSeed {
  owner: Owner;
  people: Owner[];
}

/** The document shared with {@link PEOPLE} people: typists as editors, a third of the rest too. */
async function seedCrowd(db: Database, content: DocumentContent): Promise<CrowdSeed> {
  const [owner] = await seedOwners(db, 'owner', 1, 1, [content]);
  const people = await seedOwners(db, 'crowd', PEOPLE, 1, []);
  const documentId = owner!.documentIds[0]!;
  const editor = (i: number) => i < TYPISTS || i % 3 === 0;
  await shareDocument(
    db,
    documentId,
    people.filter((_, i) => editor(i)).map((person) => person.userId),
    'editor',
  );
  await shareDocument(
    db,
    documentId,
    people.filter((_, i) => !editor(i)).map((person) => person.userId),
    'viewer',
  );
  return { owner: owner!, people };
}

/** Inkwell's side of the crowd: each person signed in with their own session. */
function inkwellCrowd(inkwell: Inkwell<CrowdSeed>, label: string): CrowdSide {
  const { owner, people } = inkwell.seeded;
  const documentId = owner.documentIds[0]!;
  return {
    name: label,
    targets: inkwell.instances.map((instance) => instance.target),
    document: documentId,
    cookie: (i) => inkwell.cookie(people[i]!.tokens[0]!),
    presence: true,
    pids: () => inkwell.pids(),
    stored: async () => {
      const res = await fetch(`${inkwell.httpUrl}/api/documents/${documentId}`, {
        headers: { Cookie: inkwell.cookie(owner.tokens[0]!) },
      });
      if (res.status !== 200) throw new Error(`GET answered ${res.status}`);
      return ((await res.json()) as DocumentResponse).document.content;
    },
  };
}

/** Runs the crowd on Inkwell with `instances` instances on `kind`; null when it cannot start. */
async function inkwellCrowdLoad(
  kind: Kind,
  instances: number,
  content: DocumentContent,
  label: string,
): Promise<CrowdMeasured | null> {
  const inkwell = await startInkwell(kind, (db) => seedCrowd(db, content), { instances });
  if (!inkwell) return null;
  try {
    const measured = await crowdLoad(inkwellCrowd(inkwell, label), phaseOf(label));
    describe(label, measured);
    return measured;
  } finally {
    await inkwell.stop();
  }
}

function phaseOf(name: string): (what: string) => void {
  const t0 = performance.now();
  return (what) =>
    console.log(`  ${name}, ${((performance.now() - t0) / 1000).toFixed(1)} s: ${what}`);
}

function describe(name: string, m: CrowdMeasured): void {
  const lost = m.lost.observers + m.lost.fresh + m.lost.stored;
  console.log(
    `${name}: ${m.typed} keys in ${(m.elapsedMs / 1000).toFixed(0)} s, ${m.latencies.length} ` +
      `arrivals timed (p50 ${formatMs(median(m.latencies))}, p95 ${formatMs(p95(m.latencies))}), ` +
      `server CPU ${formatMs((m.cpuMs * 1000) / m.elapsedMs)}/s, ${lost} keys lost (observers ${m.lost.observers}, fresh copy ` +
      `${m.lost.fresh}, stored ${m.lost.stored}); messages per person ` +
      `${m.messagesPerSecond.toFixed(1)}/s, presence states per observer ` +
      `${m.statesPerSecond.toFixed(1)}/s, last summary's count ${m.summaryCount}; this ` +
      `process's CPU ${((m.clientCpuMs / m.elapsedMs) * 100).toFixed(0)}% of a core`,
  );
}

/** The figures of one Inkwell crowd beside the bare one. */
function crowdFigures(label: string, m: CrowdMeasured, bare: CrowdMeasured): Figure[] {
  const figures: Figure[] = [
    {
      label: `${label}: key to others' copies, p50`,
      value: median(m.latencies),
      baseline: median(bare.latencies),
      unit: 'ms',
    },
    {
      label: `${label}: key to others' copies, p95`,
      value: p95(m.latencies),
      baseline: p95(bare.latencies),
      unit: 'ms',
      limit: 100,
    },
  ];
  if (m.crossLatencies.length > 0) {
    figures.push({
      label: `${label}: key to a copy on the other instance, p95`,
      value: p95(m.crossLatencies),
      baseline: p95(bare.latencies),
      unit: 'ms',
      limit: 100,
    });
  }
  figures.push(
    {
      label: `${label}: server CPU per s of typing (presence on; bare: off)`,
      value: (m.cpuMs * 1000) / m.elapsedMs,
      baseline: (bare.cpuMs * 1000) / bare.elapsedMs,
      unit: 'ms',
      target: 2,
    },
    {
      label: `${label}: keys lost`,
      value: m.lost.observers + m.lost.fresh + m.lost.stored,
      baseline: bare.lost.observers + bare.lost.fresh,
      unit: 'count',
      limit: 0,
    },
  );
  return figures;
}

/** The sockets over many documents, on a fresh bare server and a fresh Inkwell. */
async function socketCosts(
  kind: Kind,
  content: DocumentContent,
): Promise<{ inkwell: SocketsMeasured; bare: SocketsMeasured } | null> {
  const perDocument = Math.max(1, Math.round(SOCKETS / SOCKET_DOCUMENTS));
  const bareServer = await startBare({ small: content });
  let bare: SocketsMeasured;
  try {
    bare = await openSockets(
      {
        name: BASELINE,
        target: bareServer.target,
        pid: bareServer.child.child.pid,
        pids: () => bareServer.pids(),
        document: (d) => `small:${d}`,
        cookie: () => undefined,
      },
      phaseOf(`${BASELINE}, sockets`),
    );
  } finally {
    await bareServer.stop();
  }
  const inkwell = await startInkwell(kind, (db) =>
    seedOwners(db, 'sockets', SOCKET_DOCUMENTS, perDocument, [content]),
  );
  if (!inkwell) return null;
  try {
    const measured = await openSockets(
      {
        name: 'Inkwell',
        target: inkwell.target,
        pid: inkwell.child.child.pid,
        pids: () => inkwell.pids(),
        document: (d) => inkwell.seeded[d]!.documentIds[0]!,
        cookie: (d, s) => inkwell.cookie(inkwell.seeded[d]!.tokens[s]!),
      },
      phaseOf(`Inkwell, ${KIND_NAMES[kind]}, sockets`),
    );
    return { inkwell: measured, bare };
  } finally {
    await inkwell.stop();
  }
}

function accessFigures(kind: Kind, m: AccessMeasured): Figure[] {
  return [
    {
      label: `${KIND_NAMES[kind]}: GET's read with the access check, p95 (baseline: the read alone)`,
      value: p95(m.getWithCheck),
      baseline: p95(m.getWithout),
      unit: 'ms',
      maxOverhead: 1,
    },
    {
      label: `${KIND_NAMES[kind]}: admission's access query, p95 (baseline: none)`,
      value: p95(m.admission),
      baseline: 0,
      unit: 'ms',
      limit: 1,
    },
  ];
}

/**
 * `collabCrowd`: one document, many people. {@link PEOPLE} people in one document, {@link TYPISTS}
 * typing, presence on: each key's time into {@link OBSERVERS} observers' copies, server CPU and
 * keys lost, on one Inkwell instance and on two sharing Redis, against bare Hocuspocus without
 * presence; then {@link SOCKETS} sockets over {@link SOCKET_DOCUMENTS} documents (memory and CPU
 * per socket), and what the access check adds to a GET and to an admission.
 */
export async function collabCrowd(fixtures: Fixtures): Promise<BenchReport> {
  const source = fixtures.bySize[0]!.markdown;
  const crowdDocument = proseOfSize(source, CROWD_DOCUMENT_BYTES);
  const socketDocument = proseOfSize(source, SOCKET_DOCUMENT_BYTES);
  console.log(
    `${PEOPLE} people in one ${formatBytes(CROWD_DOCUMENT_BYTES)} document ` +
      `(${crowdDocument.content?.length ?? 0} blocks), ${TYPISTS} typing ${KEYS_PER_SECOND} ` +
      `keys/s for ${SECONDS} s, ${OBSERVERS} observers, presence renewed every ` +
      `${RENEW_MS / 1000} s; then ${SOCKETS} sockets over ${SOCKET_DOCUMENTS} documents of ` +
      `${formatBytes(SOCKET_DOCUMENT_BYTES)} idling ${IDLE_SECONDS} s; then ${ACCESS_ROUNDS} ` +
      `access checks.`,
  );
  const bareCrowd = async (presence: boolean): Promise<CrowdMeasured> => {
    const name = `${BASELINE}, presence ${presence ? 'on' : 'off'}`;
    const bareServer = await startBare({ crowd: crowdDocument });
    try {
      const measured = await crowdLoad(
        {
          name,
          targets: [bareServer.target],
          document: 'crowd:0',
          cookie: () => undefined,
          presence,
          pids: () => bareServer.pids(),
        },
        phaseOf(name),
      );
      describe(name, measured);
      return measured;
    } finally {
      await bareServer.stop();
    }
  };
  const bare = await bareCrowd(false);
  if (BARE_PRESENCE) await bareCrowd(true);

  const figures: Figure[] = [];
  const report = (measured: Figure[]) => {
    printFigures(measured, BASELINE);
    figures.push(...measured);
  };
  // PostgreSQL when installed, so that one instance and two differ only in the instances.
  let kind: Kind = 'postgres';
  let one = await inkwellCrowdLoad(kind, 1, crowdDocument, 'Inkwell, 1 instance, PostgreSQL');
  if (!one) {
    kind = 'pglite';
    console.log('PostgreSQL is not installed: one instance on PGlite, two instances skipped.');
    one = await inkwellCrowdLoad(kind, 1, crowdDocument, 'Inkwell, 1 instance, PGlite');
  }
  if (one) report(crowdFigures('1 instance', one, bare));
  if (kind === 'postgres') {
    const two = await inkwellCrowdLoad(kind, 2, crowdDocument, 'Inkwell, 2 instances + Redis');
    if (two) report(crowdFigures('2 instances', two, bare));
  }

  const sockets = await socketCosts(kind, socketDocument);
  if (sockets) {
    const label = `${SOCKETS} sockets over ${SOCKET_DOCUMENTS} documents`;
    report([
      {
        label: `${label}: memory per socket`,
        value: sockets.inkwell.bytesPerSocket,
        baseline: sockets.bare.bytesPerSocket,
        unit: 'bytes',
      },
      {
        label: `${label}: server CPU per socket per s`,
        value: sockets.inkwell.cpuMsPerSocketSecond,
        baseline: sockets.bare.cpuMsPerSocketSecond,
        unit: 'ms',
      },
    ]);
  }

  for (const accessKind of ['pglite', 'postgres'] as const) {
    const access = await accessCost(accessKind, crowdDocument, socketDocument);
    if (access) report(accessFigures(accessKind, access));
  }
  return { name: NAME, baselineName: BASELINE, figures };
}
