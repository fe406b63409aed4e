import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AiGenerateRequest } from '../common/api/ai.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../common/api/errors.ts';
import { createSession, upsertUser } from '../server/auth/sessions.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrate } from '../server/db/migrate.ts';
import { sessionCookieName } from '../server/middleware/session.ts';
import { startFakeAiProvider, type FakeAiProvider } from '../server/test/fakeAiProvider.ts';
import { spawnNode, stopChild, type NodeChild } from './childProcess.ts';
import { printFigures, table, type BenchReport, type Figure } from './report.ts';
import { formatMs, median, p95 } from './stats.ts';

const NAME = 'aiGateway';
const BASELINE = 'straight to the fake';
/** Requests per side, measured, alternating A B B A; then as many again unmeasured first. */
const REQUESTS = 200;
const WARMUP = 20;
/** The issue's target: Inkwell's time to first token at most this much over the provider's. */
const MAX_OVERHEAD_MS = 5;
/** A short answer in a few chunks, sent without delay: only the path to the first one matters. */
const REPLY = 'The quick fox leaps over the **sleeping** dog, and keeps going.';
const REQUEST: AiGenerateRequest = {
  command: 'improve',
  text: 'The quick fox jumps over the lazy dog, and then it keeps on going.',
  context: 'A paragraph before the one to improve.\n\nA paragraph after it.',
};

/** One streamed request: ms to the first piece of the answer, and to the end of the stream. */
interface Timing {
  firstToken: number;
  total: number;
  /** ms until the fake had read the request (its clock is this process's). */
  atProvider: number;
}

/**
 * POSTs `body` to `url` and reads the stream to its end; `first` tells, from everything received
 * so far, whether the first piece of the answer has arrived.
 */
async function timeStream(
  fake: FakeAiProvider,
  url: string,
  headers: Record<string, string>,
  body: string,
  first: (received: string) => boolean,
): Promise<Timing> {
  const arrived = fake.nextRequest();
  const started = performance.now();
  const response = await fetch(url, { method: 'POST', headers, body });
  if (!response.ok || !response.body) {
    throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  }
  const decoder = new TextDecoder();
  let received = '';
  let firstToken = Number.NaN;
  for await (const chunk of response.body) {
    received += decoder.decode(chunk, { stream: true });
    if (Number.isNaN(firstToken) && first(received)) firstToken = performance.now() - started;
  }
  const total = performance.now() - started;
  if (Number.isNaN(firstToken)) throw new Error(`${url} streamed no answer: ${received}`);
  if (received.includes('event: error')) throw new Error(`${url} streamed an error: ${received}`);
  return { firstToken, total, atProvider: (await arrived).receivedAt - started };
}

/** Inkwell's SSE: an `event: delta` line. */
const inkwellFirst = (received: string) => received.includes('event: delta');
/** Chat Completions: the first chunk with text (the role-only chunk before it carries none). */
const providerFirst = (received: string) => /"content":"[^"]/.test(received);

/** A user and a session, written into a fresh PGlite folder before Inkwell opens it. */
async function seedSession(dataDir: string): Promise<string> {
  const db = await openDatabase({ kind: 'pglite', dataDir });
  try {
    await migrate(db);
    const user = await upsertUser(db, {
      issuer: 'https://bench.inkwell.invalid',
      subject: 'ai-gateway',
      email: 'ai-gateway@bench.invalid',
      name: 'AI gateway',
    });
    return await createSession(db, {
      userId: user.id,
      days: 30,
      userAgent: 'inkwell-bench',
      idToken: undefined,
    });
  } finally {
    await db.close();
  }
}

/**
 * Overhead of the AI gateway: time to first token of `POST /api/ai/generate` through Inkwell (a
 * child process on PGlite, with its rate limit, stream and usage rows) against the same Chat
 * Completions request sent straight to the fake provider Inkwell forwards to.
 */
export async function aiGateway(): Promise<BenchReport> {
  const tmp = await mkdtemp(join(tmpdir(), 'inkwell-bench-ai-gateway-'));
  let fake: FakeAiProvider | undefined;
  let inkwell: NodeChild | undefined;
  try {
    const dataDir = join(tmp, 'data');
    const sessionToken = await seedSession(dataDir);
    fake = await startFakeAiProvider();
    fake.setBehaviour({ kind: 'answer' }, { reply: REPLY, chunkChars: 4, delayMs: 0 });
    inkwell = await spawnNode(
      ['--import', 'tsx', 'server/main.ts'],
      /Inkwell listening on (http:\/\/[^\s"]+)/,
      {
        env: {
          DATA_DIR: dataDir,
          PORT: '0',
          HOST: '127.0.0.1',
          NODE_ENV: 'production',
          LOG_LEVEL: 'info',
          AI_BASE_URL: fake.baseUrl,
          AI_MODEL: 'fake',
          AI_REQUESTS_PER_MINUTE: '10000',
          AI_DAILY_TOKEN_BUDGET: '1000000000',
        },
      },
    );
    const publicUrl = new URL(inkwell.ready[1]!);
    // Same address family as the fake; the Origin still has to be the public one.
    const generateUrl = `http://127.0.0.1:${publicUrl.port}/api/ai/generate`;
    const inkwellHeaders = {
      Cookie: `${sessionCookieName(publicUrl.href)}=${sessionToken}`,
      [CSRF_HEADER]: CSRF_HEADER_VALUE,
      Origin: publicUrl.origin,
      'Content-Type': 'application/json',
    };
    const inkwellBody = JSON.stringify(REQUEST);
    const provider = fake;
    const viaInkwell = () =>
      timeStream(provider, generateUrl, inkwellHeaders, inkwellBody, inkwellFirst);

    // The baseline sends exactly what Inkwell sent the fake (prompt, model, cap, stream options).
    await viaInkwell();
    const { body: forwarded, headers: forwardedHeaders } = fake.requests[0]!;
    const completionsUrl = `${fake.baseUrl}/chat/completions`;
    const providerHeaders: Record<string, string> = { 'Content-Type': 'application/json' };
    if (typeof forwardedHeaders.authorization === 'string') {
      providerHeaders.Authorization = forwardedHeaders.authorization;
    }
    const providerBody = JSON.stringify(forwarded);
    const direct = () =>
      timeStream(provider, completionsUrl, providerHeaders, providerBody, providerFirst);

    for (let i = 0; i < WARMUP; i++) {
      await viaInkwell();
      await direct();
    }
    const a: Timing[] = [];
    const b: Timing[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      // A B B A: a drift of the machine's speed weighs on both sides alike.
      if (i % 2 === 0) {
        a.push(await viaInkwell());
        b.push(await direct());
      } else {
        b.push(await direct());
        a.push(await viaInkwell());
      }
    }

    const first = (side: Timing[]) => side.map((t) => t.firstToken);
    const totals = (side: Timing[]) => side.map((t) => t.total);
    const atProvider = (side: Timing[]) => side.map((t) => t.atProvider);
    const back = (side: Timing[]) => side.map((t) => t.firstToken - t.atProvider);
    const paired = a.map((t, i) => t.firstToken - (b[i]?.firstToken ?? Number.NaN));
    console.log(
      `${REQUESTS} requests per side after ${WARMUP} unmeasured, alternating, one at a time; ` +
        `the fake streams ${REPLY.length} characters in 4-character chunks without delay. ` +
        `Inkwell on PGlite (${fake.requests.length} requests reached the fake).`,
    );
    console.log(
      table(
        [
          [
            '',
            'first token p50',
            'first token p95',
            'sent → fake has it p50',
            'fake has it → first token p50',
            'whole stream p50',
            'whole stream p95',
          ],
          ...(
            [
              ['Inkwell', a],
              [BASELINE, b],
            ] as const
          ).map(([name, side]) => [
            name,
            formatMs(median(first(side))),
            formatMs(p95(first(side))),
            formatMs(median(atProvider(side))),
            formatMs(median(back(side))),
            formatMs(median(totals(side))),
            formatMs(p95(totals(side))),
          ]),
        ],
        1,
      ),
    );
    const overhead = median(first(a)) - median(first(b));
    console.log(
      `Overhead, difference of the medians: ${formatMs(overhead)} ` +
        `(median of the paired differences ${formatMs(median(paired))}); ` +
        `target ≤ ${MAX_OVERHEAD_MS} ms: ${overhead <= MAX_OVERHEAD_MS ? 'met' : 'MISSED'}.`,
    );
    const figures: Figure[] = [
      {
        label: 'time to first token p50',
        value: median(first(a)),
        baseline: median(first(b)),
        unit: 'ms',
        maxOverhead: MAX_OVERHEAD_MS,
      },
      {
        label: 'time to first token p95',
        value: p95(first(a)),
        baseline: p95(first(b)),
        unit: 'ms',
      },
      {
        label: 'whole stream p50',
        value: median(totals(a)),
        baseline: median(totals(b)),
        unit: 'ms',
      },
    ];
    printFigures(figures, BASELINE);
    return { name: NAME, baselineName: BASELINE, figures };
  } finally {
    if (inkwell) await stopChild(inkwell.child, inkwell.exited);
    await fake?.close();
    await rm(tmp, { recursive: true, force: true });
  }
}
