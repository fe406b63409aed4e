import { unzipSync, zipSync } from 'fflate';
import MarkdownIt from 'markdown-it';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../common/api/csrf.ts';
import type {
  VaultImportResponse,
  VaultListResponse,
  VaultMarkdownResponse,
} from '../common/api/vault.ts';
import { inkwellSchema } from '../common/editor/extensions.ts';
import { decodeMarkdownFile, parseMarkdown } from '../common/editor/markdown/index.ts';
import { bytesSource, listZipEntries, readZipEntry } from '../common/vault/zipReader.ts';
import { joinChunks, ZipWriter } from '../common/vault/zipWriter.ts';
import { exportVault } from '../client/features/vault/exportVault.ts';
import {
  importVault,
  VAULT_LIMITS,
  type OutgoingNote,
} from '../client/features/vault/importVault.ts';
import { createSession, upsertUser } from '../server/auth/sessions.ts';
import { loadConfig } from '../server/config.ts';
import { migrate } from '../server/db/migrate.ts';
import { openPglite } from '../server/db/pglite.ts';
import { createLogger } from '../server/logger.ts';
import { sessionCookieName } from '../server/middleware/session.ts';
import { startServer } from '../server/startServer.ts';
import type { Fixtures } from './fixtures.ts';
import { printFigures, type BenchReport, type Figure } from './report.ts';

const NOTES = 1_000;
const BASELINE = 'fflate + markdown-it alone';

/**
 * A generated vault of 1,000 notes in 30 folders (some nested), each note 1–4 KB of the README
 * fixture cut at blank lines, so that the notes hold lists, code, links and tables as READMEs do.
 */
function generateVault(markdown: string): Record<string, string> {
  const blocks = markdown.split(/\n{2,}/);
  const files: Record<string, string> = {};
  let at = 0;
  for (let i = 0; i < NOTES; i++) {
    const size = 1000 + ((i * 7919) % 3000);
    let note = '';
    while (note.length < size) {
      note += `${blocks[at % blocks.length]}\n\n`;
      at++;
    }
    const folder = i % 30 < 10 ? `Area ${i % 10}` : `Area ${i % 10}/Topic ${i % 30}`;
    files[`Vault/${folder}/Note ${i}.md`] = `${note.trimEnd()}\n`;
  }
  return files;
}

// A collection before each measure, so that the garbage of the one before does not count.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Peak of heap plus array buffers above the start, sampled every 5 ms while `task` runs. */
async function measure<T>(task: () => Promise<T>): Promise<{ ms: number; peak: number; value: T }> {
  collectGarbage();
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const base = used();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, used())), 5);
  const started = performance.now();
  try {
    const value = await task();
    peak = Math.max(peak, used());
    return { ms: performance.now() - started, peak: peak - base, value };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Vault import and export of a generated 1,000-note vault, in Node against an in-process Inkwell
 * on PGlite: the same pipeline the browser runs (zip read, codec, batches to the API; the export
 * listing, Markdown batches and zip). Baseline, in the same run: fflate `unzipSync` and
 * markdown-it `render` of every note for the import, fflate `zipSync` of the same Markdown for
 * the export: the least any importer or exporter built on them does, without storage.
 * Peak memory is sampled every 5 ms after a garbage collection; a synchronous baseline is read
 * at its end, holding what it made.
 */
export async function vault(fixtures: Fixtures): Promise<BenchReport> {
  const files = generateVault(fixtures.large.markdown);
  const zip = new ZipWriter();
  for (const [path, text] of Object.entries(files)) zip.add(path, text);
  const zipBytes = joinChunks(zip.finish());
  console.log(
    `Vault: ${NOTES} notes, ${(Object.values(files).join('').length / 1e6).toFixed(1)} MB of Markdown, ${(zipBytes.length / 1e6).toFixed(1)} MB zipped`,
  );

  const db = await openPglite(undefined);
  await migrate(db);
  const config = { ...loadConfig({ PORT: '0', NODE_ENV: 'test', LOG_LEVEL: 'silent' }) };
  const server = await startServer(config, { logger: createLogger('silent'), database: db });
  try {
    const user = await upsertUser(db, {
      issuer: 'https://bench.inkwell.invalid',
      subject: 'vault',
      email: 'vault@bench.invalid',
      name: 'Vault',
    });
    const token = await createSession(db, {
      userId: user.id,
      days: 1,
      userAgent: 'bench',
      idToken: undefined,
    });
    const headers = {
      Cookie: `${sessionCookieName(server.url)}=${token}`,
      [CSRF_HEADER]: CSRF_HEADER_VALUE,
      Origin: new URL(server.url).origin,
      'Content-Type': 'application/json',
    };
    const call = async <T>(method: string, path: string, body?: string): Promise<T> => {
      const res = await fetch(new URL(path, server.url), { method, headers, body });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };

    const schema = inkwellSchema();
    let parseMs = 0;
    let serverMs = 0;
    const inkwellImport = await measure(async () => {
      const source = bytesSource(zipBytes);
      const entries = await listZipEntries(source, { maxEntries: VAULT_LIMITS.maxEntries });
      return importVault(
        entries.map((entry) => ({
          path: entry.name,
          size: entry.size,
          read: () => readZipEntry(source, entry, VAULT_LIMITS.maxFileBytes),
        })),
        {
          parse: (bytes) => {
            const started = performance.now();
            const json = JSON.stringify(parseMarkdown(decodeMarkdownFile(bytes), schema).toJSON());
            parseMs += performance.now() - started;
            return json;
          },
          send: async (notes: OutgoingNote[]) => {
            const items = notes.map(
              (n) =>
                `{"id":${JSON.stringify(n.id)},"title":${JSON.stringify(n.title)},"folder":${JSON.stringify(n.folder)},"content":${n.content}}`,
            );
            const started = performance.now();
            const answer = await call<VaultImportResponse>(
              'POST',
              '/api/vault/documents',
              `{"documents":[${items.join(',')}]}`,
            );
            serverMs += performance.now() - started;
            return answer.results;
          },
          newId: () => crypto.randomUUID(),
          yieldToBrowser: () => new Promise((resolve) => setImmediate(resolve)),
          onProgress: () => undefined,
        },
      );
    });
    if (inkwellImport.value.imported !== NOTES) {
      throw new Error(
        `imported ${inkwellImport.value.imported} of ${NOTES}: ${JSON.stringify(inkwellImport.value.failed.slice(0, 3))}`,
      );
    }
    const markdownIt = new MarkdownIt('default', { html: true, linkify: false, breaks: false });
    console.log(
      `Import: parsing ${Math.round(parseMs)} ms on the client's thread; batches in flight ${Math.round(serverMs)} ms (overlapping parsing)`,
    );
    // Kept until measured, as the importer keeps what it made: the working set counts.
    const baselineImport = await measure(async () => {
      const unzipped = unzipSync(zipBytes);
      const html = Object.values(unzipped).map((bytes) =>
        markdownIt.render(new TextDecoder().decode(bytes)),
      );
      return { unzipped, html };
    });

    const inkwellExport = await measure(() =>
      exportVault('', {
        list: async () => (await call<VaultListResponse>('GET', '/api/vault/documents')).documents,
        markdown: (ids) =>
          call<VaultMarkdownResponse>('POST', '/api/vault/markdown', JSON.stringify({ ids })),
        yieldToBrowser: () => new Promise((resolve) => setImmediate(resolve)),
        onProgress: () => undefined,
      }),
    );
    if (inkwellExport.value.count !== NOTES)
      throw new Error(`exported ${inkwellExport.value.count}`);
    const encoder = new TextEncoder();
    const baselineExport = await measure(() =>
      Promise.resolve(
        zipSync(Object.fromEntries(Object.entries(files).map(([p, t]) => [p, encoder.encode(t)])), {
          level: 6,
        }),
      ),
    );
    // The export gives back what went in, byte for byte, where the codec keeps a note verbatim.
    const exported = unzipSync(joinChunks(inkwellExport.value.chunks));
    const same = Object.entries(files).filter(
      ([path, text]) => new TextDecoder().decode(exported[path]) === text,
    ).length;
    console.log(`Notes that came back byte for byte: ${same} of ${NOTES}`);

    const figures: Figure[] = [
      {
        label: `import ${NOTES} notes (zip → API), time`,
        value: inkwellImport.ms,
        baseline: baselineImport.ms,
        unit: 'ms',
      },
      {
        label: 'import, peak memory',
        value: inkwellImport.peak,
        baseline: baselineImport.peak,
        unit: 'bytes',
      },
      {
        label: `export ${NOTES} notes (API → zip), time`,
        value: inkwellExport.ms,
        baseline: baselineExport.ms,
        unit: 'ms',
      },
      {
        label: 'export, peak memory',
        value: inkwellExport.peak,
        baseline: baselineExport.peak,
        unit: 'bytes',
      },
    ];
    printFigures(figures, BASELINE);
    return { name: 'vault', baselineName: BASELINE, figures };
  } finally {
    await server.close();
  }
}
