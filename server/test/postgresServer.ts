import { execFile, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { access, chown, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** Where Debian installs each server version; elsewhere `pg_config --bindir` names the folder. */
const DEBIAN_ROOT = '/usr/lib/postgresql';

/** Says why the real-server tests cannot run; also the start of the error CI gets. */
export const POSTGRES_MISSING = `PostgreSQL is not installed (no initdb and pg_ctl in ${DEBIAN_ROOT}/*/bin or pg_config --bindir)`;

/** Settings that trade durability for speed: a test cluster is thrown away, never recovered. */
const TEST_SETTINGS = [
  'listen_addresses=127.0.0.1',
  'fsync=off',
  'synchronous_commit=off',
  'full_page_writes=off',
  'TimeZone=UTC',
];

/** A throwaway PostgreSQL cluster. */
export interface PostgresServer {
  /** Connection string of its `postgres` database as the superuser `inkwell`. */
  url: string;
  /** Stops the server and deletes its files. */
  stop(): Promise<void>;
}

/** Options of `startPostgresServer`. */
export interface PostgresServerOptions {
  /** Throw when PostgreSQL is not installed instead of returning null (CI must run these tests). */
  required: boolean;
}

/**
 * Starts a fresh cluster in a temp folder on a free port and waits until it accepts connections.
 * Returns null when PostgreSQL is not installed and not `required`.
 */
export async function startPostgresServer(
  options: PostgresServerOptions,
): Promise<PostgresServer | null> {
  const bin = await findBinaries();
  if (!bin) {
    if (options.required) {
      throw new Error(
        `${POSTGRES_MISSING}; the real-server tests must run here: apt-get install postgresql`,
      );
    }
    return null;
  }
  // PostgreSQL refuses to run as root, so root hands the cluster to the postgres account.
  const asRoot = process.getuid?.() === 0;
  const command = (binary: string, args: string[]): [string, string[]] =>
    asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, binary), ...args]]
      : [join(bin, binary), args];
  const pgRun = (binary: string, args: string[]) => run(...command(binary, args));

  const base = await mkdtemp(join(tmpdir(), 'inkwell-postgres-'));
  const dataDir = join(base, 'data');
  // vitest exits on Ctrl-C without its teardowns; the cluster must not outlive the process.
  const stopAtExit = () => {
    spawnSync(...command('pg_ctl', ['-D', dataDir, 'stop', '-m', 'immediate']));
    rmSync(base, { recursive: true, force: true });
  };
  process.once('exit', stopAtExit);
  try {
    if (asRoot) await chown(base, ...(await postgresAccount()));
    // The same encoding and locale as PGlite, whatever the machine's LANG says.
    await pgRun('initdb', [
      ...['-D', dataDir, '-A', 'trust', '-U', 'inkwell', '-E', 'UTF8'],
      ...['--lc-collate=C', '--lc-ctype=C.UTF-8', '--no-sync', '--no-instructions'],
    ]);
    const port = await startOnFreePort(pgRun, base, dataDir);
    const stop = async () => {
      process.off('exit', stopAtExit);
      await pgRun('pg_ctl', ['-D', dataDir, 'stop', '-m', 'fast', '-w']);
      await rm(base, { recursive: true, force: true });
    };
    return { url: `postgres://inkwell@127.0.0.1:${port}/postgres`, stop };
  } catch (error) {
    // A server that timed out starting may still come up: stop it whatever state it is in.
    process.off('exit', stopAtExit);
    stopAtExit();
    throw error;
  }
}

type PgRun = (binary: string, args: string[]) => Promise<unknown>;

/** Starts the cluster in `dataDir` and returns its port; its socket and log go to `base`. */
async function startOnFreePort(pgRun: PgRun, base: string, dataDir: string): Promise<number> {
  const log = join(base, 'log');
  const settings = TEST_SETTINGS.map((setting) => `-c ${setting}`).join(' ');
  // The free port can be taken by someone else before the server binds it: try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      await pgRun('pg_ctl', [
        ...['-D', dataDir, '-l', log, '-w', '-t', '30', 'start'],
        ...['-o', `-p ${port} -k '${base}' ${settings}`],
      ]);
      return port;
    } catch (error) {
      const tail = (await readFile(log, 'utf8').catch(() => '')).slice(-2000);
      if (attempt < 3 && tail.includes('could not bind')) continue;
      throw new Error(`PostgreSQL did not start; its log ends:\n${tail}`, { cause: error });
    }
  }
}

/** Runs one statement on the server at `url` over a connection of its own. */
export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The connection string of database `name` on the server at `url`. */
export function databaseUrl(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.href;
}

/** The folder holding initdb and pg_ctl: Debian's newest version, else the one pg_config names. */
async function findBinaries(): Promise<string | null> {
  const versions = await readdir(DEBIAN_ROOT).catch(() => []);
  const candidates = versions
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(DEBIAN_ROOT, version, 'bin'));
  const bindir = await run('pg_config', ['--bindir']).then(
    ({ stdout }) => stdout.trim(),
    () => '',
  );
  if (bindir) candidates.push(bindir);
  for (const dir of candidates) {
    const found = await Promise.all(
      ['initdb', 'pg_ctl'].map((binary) =>
        access(join(dir, binary)).then(
          () => true,
          () => false,
        ),
      ),
    );
    if (found.every(Boolean)) return dir;
  }
  return null;
}

async function postgresAccount(): Promise<[number, number]> {
  const [uid, gid] = await Promise.all([
    run('id', ['-u', 'postgres']),
    run('id', ['-g', 'postgres']),
  ]);
  return [Number(uid.stdout.trim()), Number(gid.stdout.trim())];
}

/** A port nobody listens on now; the OS picks it. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
