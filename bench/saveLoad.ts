import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';

/** One writer of the load: a document it saves into, and the version its next save is based on. */
export interface Writer {
  /** The document it saves. */
  documentId: string;
  /** Headers every save carries (session cookie, CSRF header and Origin for Inkwell). */
  headers: Record<string, string>;
  /** The version the server last acknowledged, sent as `baseVersion`. */
  version: number;
  /** Saves sent so far, so that every save differs from the one before. */
  saves: number;
}

/** What one stretch of load measured. */
export interface LoadResult {
  /** Milliseconds from sending each acknowledged save to its whole answer. */
  latencies: number[];
  /** From the first save sent to the last answer received. */
  elapsedMs: number;
  /** Answers other than 200, and requests that failed. */
  errors: number;
  /** The first of those, for the report. */
  firstError: string | undefined;
  /** Distinct TCP connections the saves went over. */
  connections: number;
}

/** Makes the body of a save; `saves` changes the text, so every save writes something new. */
export type SaveBody = (writer: Writer, writerIndex: number) => string;

interface Answer {
  status: number;
  body: string;
  socket: Socket;
}

function send(agent: Agent, origin: URL, writer: Writer, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: origin.hostname,
        port: origin.port,
        method: 'PATCH',
        path: `/api/documents/${writer.documentId}`,
        headers: {
          ...writer.headers,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            socket: req.socket!,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Opens a connection with a request that costs the server nothing (any answer will do). Done for
 * every writer before the clock starts: a server busy on PGlite's one thread accepts a new
 * connection only between runs of queued queries, so 50 writers connecting to a saturated server
 * would spend seconds waiting to be accepted, which is the cost of connecting, not of a save.
 */
function connect(agent: Agent, origin: URL): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, host: origin.hostname, port: origin.port, path: '/healthz' },
      (res) => {
        res.resume();
        res.on('end', resolve);
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The version a save answer names: the new one on 200, the server's current one on 409. */
function versionIn(answer: Answer): number | undefined {
  const parsed = JSON.parse(answer.body) as {
    version?: unknown;
    error?: { current?: { version?: unknown } };
  };
  const version = answer.status === 200 ? parsed.version : parsed.error?.current?.version;
  return typeof version === 'number' ? version : undefined;
}

/**
 * Every writer saves in a loop, one save in flight each, over a keep-alive connection of its own,
 * until `durationMs` have passed; saves in flight then finish and count.
 */
export async function runSaveLoad(
  baseUrl: string,
  writers: readonly Writer[],
  bodyOf: SaveBody,
  durationMs: number,
): Promise<LoadResult> {
  const origin = new URL(baseUrl);
  // One socket per writer, kept between saves as a browser tab keeps its connection.
  const agent = new Agent({ keepAlive: true, maxSockets: writers.length });
  const sockets = new Set<Socket>();
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const fail = (message: string) => {
    errors += 1;
    firstError ??= message;
  };
  await Promise.all(writers.map(() => connect(agent, origin)));
  const started = performance.now();
  const deadline = started + durationMs;
  const loop = async (writer: Writer, index: number) => {
    while (performance.now() < deadline) {
      writer.saves += 1;
      const body = bodyOf(writer, index);
      const sent = performance.now();
      try {
        const answer = await send(agent, origin, writer, body);
        sockets.add(answer.socket);
        writer.version = versionIn(answer) ?? writer.version;
        if (answer.status === 200) latencies.push(performance.now() - sent);
        else fail(`${answer.status} ${answer.body.slice(0, 200)}`);
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error));
      }
    }
  };
  try {
    await Promise.all(writers.map(loop));
  } finally {
    agent.destroy();
  }
  return {
    latencies,
    elapsedMs: performance.now() - started,
    errors,
    firstError,
    connections: sockets.size,
  };
}
