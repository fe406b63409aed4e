import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../db/migrate.ts';
import { openPglite, type PgliteDatabase } from '../db/pglite.ts';
import { AppError } from '../errors.ts';
import { UploadGate } from './uploadGate.ts';

let db: PgliteDatabase;

beforeAll(async () => {
  db = await openPglite(undefined);
  await migrate(db);
});

afterAll(async () => {
  await db.close();
});

/** A promise and what settles it, to hold a decode open for as long as a test needs. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Once every promise that can settle now has. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** The refusal `admit` throws, as the API sends it. */
async function refusal(admitted: Promise<unknown>) {
  const error = await admitted.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { code: error.code, message: error.message, retryAfter: error.headers['Retry-After'] };
}

describe('the upload gate', () => {
  it('refuses a person a third upload while two are under way, and admits it once one ends', async () => {
    const gate = new UploadGate(db, { uploadsPerMinute: 100, uploadsAtOnce: 2, decodesAtOnce: 2 });
    const person = randomUUID();
    const [first] = await Promise.all([gate.admit(person), gate.admit(person)]);
    expect(await refusal(gate.admit(person))).toEqual({
      code: 'rate_limited',
      message:
        'You have 2 uploads under way already. Try again in 5 seconds, once one has finished.',
      retryAfter: '5',
    });
    // Someone else is not held back.
    await gate.admit(randomUUID());
    first();
    first(); // ending twice frees one place, not two
    await gate.admit(person);
    expect((await refusal(gate.admit(person))).code).toBe('rate_limited');
  });

  it('refuses an upload past the rate of a minute, naming the wait', async () => {
    const gate = new UploadGate(db, { uploadsPerMinute: 3, uploadsAtOnce: 1, decodesAtOnce: 2 });
    const person = randomUUID();
    for (let i = 0; i < 3; i += 1) (await gate.admit(person))();
    const refused = await refusal(gate.admit(person));
    expect(refused.code).toBe('rate_limited');
    expect(refused.message).toMatch(
      /^Too many uploads: at most 3 a minute\. Try again in (1 second|[1-5]?\d seconds|60 seconds)\.$/,
    );
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    // The refused upload holds no place (one at once is allowed): the next minute's passes.
    await db.query(
      `UPDATE rate_limits SET window_start = now() - interval '61 seconds' WHERE key = $1`,
      [`files:user:${person}`],
    );
    await gate.admit(person);
  });

  it('decodes no more images at once than allowed, and the waiting ones in order', async () => {
    const gate = new UploadGate(db, { uploadsPerMinute: 100, uploadsAtOnce: 10, decodesAtOnce: 2 });
    const started: number[] = [];
    const holds = [deferred(), deferred(), deferred(), deferred()];
    const decodes = holds.map((hold, i) =>
      gate.decode(async () => {
        started.push(i);
        await hold.promise;
        return i;
      }),
    );
    await settled();
    expect(started).toEqual([0, 1]);
    holds[1]!.resolve();
    expect(await decodes[1]).toBe(1);
    await settled();
    expect(started).toEqual([0, 1, 2]);
    holds[0]!.resolve();
    await decodes[0];
    await settled();
    expect(started).toEqual([0, 1, 2, 3]);
    holds[2]!.resolve();
    holds[3]!.resolve();
    expect(await Promise.all(decodes)).toEqual([0, 1, 2, 3]);
  });

  it('passes on its place when a decode fails', async () => {
    const gate = new UploadGate(db, { uploadsPerMinute: 100, uploadsAtOnce: 10, decodesAtOnce: 1 });
    const failed = gate.decode(() => Promise.reject(new Error('damaged')));
    const next = gate.decode(() => Promise.resolve('decoded'));
    await expect(failed).rejects.toThrow('damaged');
    expect(await next).toBe('decoded');
  });
});
