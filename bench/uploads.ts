import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../common/api/errors.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { sessionCookieName } from '../server/middleware/session.ts';
import { photo } from '../server/test/images.ts';
import { testUserWithSession } from '../server/test/users.ts';
import { spawnNode, stopChild, type NodeChild } from './childProcess.ts';
import { memoryOf } from './processMemory.ts';
import { printFigures, type BenchReport, type Figure } from './report.ts';
import { formatBytes } from './stats.ts';

/** The issue's load: 20 uploads at once, of 2 MB photos. */
const CONCURRENT = 20;
/** Rounds of `CONCURRENT` uploads per side and stretch, alternating A B B A. */
const ROUNDS_PER_STRETCH = 2;
const STRETCHES = 4;
/** The lowest acceptable Inkwell / bare throughput (the issue's target, re-encoding included). */
const THROUGHPUT_FLOOR = 0.7;
const BASELINE = 'bare route, same store';

/** A side under load: where it listens, how to send it an upload, and what it measured. */
interface Side {
  name: string;
  child: NodeChild;
  url: string;
  headers: Record<string, string>;
  bytes: number;
  elapsedMs: number;
  failures: number;
  firstFailure: string | undefined;
}

/** `CONCURRENT` uploads of `image` at once, `rounds` times; adds to the side's totals. */
async function load(
  side: Side,
  images: readonly Uint8Array<ArrayBuffer>[],
  rounds: number,
): Promise<void> {
  const started = performance.now();
  for (let round = 0; round < rounds; round += 1) {
    await Promise.all(
      images.map(async (image) => {
        const res = await fetch(side.url, { method: 'POST', headers: side.headers, body: image });
        await res.arrayBuffer();
        if (res.status === 201) side.bytes += image.length;
        else {
          side.failures += 1;
          side.firstFailure ??= `${res.status}`;
        }
      }),
    );
  }
  side.elapsedMs += performance.now() - started;
}

/**
 * `uploads`: Inkwell (`server/main.ts`, PGlite, files in the database) and the bare route, each in
 * a process of its own over its own copy of the same database, take 20 concurrent uploads of 2 MB
 * photos in turn. Figures: throughput in bytes uploaded per second, and each server's peak memory
 * (which streams keep from growing with the number of uploads times their size).
 */
export async function uploads(): Promise<BenchReport> {
  const tmp = await mkdtemp(join(tmpdir(), 'inkwell-bench-uploads-'));
  const children: NodeChild[] = [];
  try {
    // Different photos, so nothing downstream can profit from seeing the same bytes twice.
    const images = (
      await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => photo(2400, 1800, 92, i + 1)))
    ).map((image) => new Uint8Array(image));
    const average = images.reduce((sum, image) => sum + image.length, 0) / images.length;
    console.log(`${CONCURRENT} photos of 2400 × 1800, ${formatBytes(average)} on average`);

    const inkwellDir = join(tmp, 'inkwell');
    const bareDir = join(tmp, 'bare');
    const prepare = async (dir: string) => {
      const db = await openDatabase({ kind: 'pglite', dataDir: dir });
      try {
        await migrate(db);
        return await testUserWithSession(db, 'Bench');
      } finally {
        await db.close();
      }
    };
    const writer = await prepare(inkwellDir);
    const bareOwner = await prepare(bareDir);

    const inkwell = await spawnNode(
      ['--import', 'tsx', 'server/main.ts'],
      /Inkwell listening on (http:\/\/[^\s"]+)/,
      {
        env: {
          DATA_DIR: inkwellDir,
          PORT: '0',
          HOST: '127.0.0.1',
          NODE_ENV: 'production',
          LOG_LEVEL: 'info',
          // One writer sends all 20 at once, again and again: the per-person limits would
          // answer 429 to most of them. The decodes at once keep their default.
          FILE_UPLOADS_PER_MINUTE: '100000',
          FILE_UPLOADS_AT_ONCE: String(CONCURRENT),
        },
      },
    );
    children.push(inkwell);
    const bare = await spawnNode(
      ['--import', 'tsx', 'bench/bareUploadServer.ts', bareDir, bareOwner.user.id],
      /listening on (http:\/\/\S+)/,
    );
    children.push(bare);
    const inkwellUrl = inkwell.ready[1]!.replace('localhost', '127.0.0.1');
    const sides: [Side, Side] = [
      {
        name: 'Inkwell',
        child: inkwell,
        url: `${inkwellUrl}/api/files?name=photo.jpg`,
        headers: {
          Cookie: `${sessionCookieName(inkwellUrl)}=${writer.token}`,
          [CSRF_HEADER]: CSRF_HEADER_VALUE,
          Origin: new URL(inkwell.ready[1]!).origin,
        },
        bytes: 0,
        elapsedMs: 0,
        failures: 0,
        firstFailure: undefined,
      },
      {
        name: 'bare',
        child: bare,
        url: `${bare.ready[1]!}/upload`,
        headers: {},
        bytes: 0,
        elapsedMs: 0,
        failures: 0,
        firstFailure: undefined,
      },
    ];
    const idle = sides.map((side) => memoryOf(side.child.child.pid).now);
    // Warm-up: sharp's first image loads its codecs; PGlite's first writes grow its files.
    for (const side of sides) await load(side, images.slice(0, 4), 1);
    for (const side of sides) Object.assign(side, { bytes: 0, elapsedMs: 0 });
    for (let stretch = 0; stretch < STRETCHES; stretch += 1) {
      const order = stretch % 2 === 0 ? sides : [sides[1], sides[0]];
      for (const side of order) await load(side, images, ROUNDS_PER_STRETCH);
    }
    for (const side of sides) {
      if (side.failures > 0) {
        return {
          name: 'uploads',
          baselineName: BASELINE,
          figures: [],
          skipped: `${side.name}: ${side.failures} uploads failed (first: ${side.firstFailure})`,
        };
      }
    }
    const [ink, base] = sides;
    const memory = sides.map((side) => memoryOf(side.child.child.pid));
    // Twice as many at once: buffered uploads would raise the peak by another 20 × 2 MB.
    const doubled = [...images, ...images];
    for (const side of sides) await load(side, doubled, 1);
    const memoryDoubled = sides.map((side) => memoryOf(side.child.child.pid));
    const figures: Figure[] = [
      {
        label: `throughput, ${CONCURRENT} at once`,
        value: (ink.bytes / ink.elapsedMs) * 1000,
        baseline: (base.bytes / base.elapsedMs) * 1000,
        unit: 'per s',
        floor: THROUGHPUT_FLOOR,
      },
      {
        label: 'server memory, idle',
        value: idle[0]!,
        baseline: idle[1]!,
        unit: 'bytes',
      },
      {
        label: `server memory, peak at ${CONCURRENT} at once`,
        value: memory[0]!.peak,
        baseline: memory[1]!.peak,
        unit: 'bytes',
      },
      {
        // Streams, not buffers: 20 more uploads in flight must cost less than holding them.
        label: `peak growth, ${CONCURRENT} → ${2 * CONCURRENT} at once`,
        value: memoryDoubled[0]!.peak - memory[0]!.peak,
        baseline: memoryDoubled[1]!.peak - memory[1]!.peak,
        unit: 'bytes',
        limit: CONCURRENT * average,
      },
    ];
    printFigures(figures, BASELINE);
    return { name: 'uploads', baselineName: BASELINE, figures };
  } finally {
    await Promise.all(children.map((c) => stopChild(c.child, c.exited)));
    await rm(tmp, { recursive: true, force: true });
  }
}
