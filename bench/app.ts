import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { basename, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { signUp } from '../e2e/auth.ts';
import { track } from './childProcess.ts';
import type { ShownTimings } from './pages/api.ts';
import { ROOT, TMP_DIR } from './paths.ts';

/** Where `npm run build` puts the client. */
export const APP_DIR = join(ROOT, 'dist', 'client');

/** The document menu's item that opens the file dialog for a Markdown import. */
const IMPORT_MENU_ITEM = 'Import Markdown…';
const READY_TIMEOUT_MS = 30_000;
const IMPORT_TIMEOUT_MS = 120_000;

/** Thrown when the app cannot be built or served; the benchmark reports it as skipped. */
export class AppUnavailableError extends Error {
  override name = 'AppUnavailableError';
}

/** The app, served for a benchmark. */
export interface RunningApp {
  /** Its base URL. */
  url: string;
  /** How it is served: by Inkwell's server, or by the bench's static server when that failed. */
  servedBy: string;
  /** Stops serving. */
  stop(): Promise<void>;
}

let built: Promise<void> | undefined;

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

const BUILD_LOG = join(TMP_DIR, 'app-build.log');
const GENERIC_BUILD_LINE = /^(error during build:|Error: Build failed with \d+ errors?:?)$/i;

/** The first lines of a failed build's output that say what failed. */
function buildFailure(output: string): string {
  const lines = stripVTControlCharacters(output)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !GENERIC_BUILD_LINE.test(line));
  const telling = lines.filter((line) => /error|fail|cannot|could not|not found/i.test(line));
  return (telling.length > 0 ? telling : lines).slice(0, 2).join(' | ');
}

async function viteBuild(args: string[]): Promise<void> {
  const { code, output } = await run(join(ROOT, 'node_modules', '.bin', 'vite'), [
    'build',
    ...args,
  ]);
  await mkdir(TMP_DIR, { recursive: true });
  await writeFile(BUILD_LOG, output);
  if (code !== 0) {
    const reason = buildFailure(output) || `vite build exited with ${code}`;
    throw new AppUnavailableError(`app build failed: ${reason} (full output in ${BUILD_LOG})`);
  }
}

/** Builds the app into `dist/client` once per run (`vite build`, as `npm run build` does). */
export function buildApp(): Promise<void> {
  built ??= (async () => {
    const started = performance.now();
    await viteBuild([]);
    if (!existsSync(join(APP_DIR, 'index.html'))) {
      throw new AppUnavailableError(`app build failed: it wrote no ${APP_DIR}/index.html`);
    }
    console.log(`Built the app in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  })();
  return built;
}

/**
 * Builds the app unminified into `dist/client`, so that CPU profiles name its functions; the
 * apps started afterwards in this run serve that build.
 */
export function buildReadableApp(): Promise<void> {
  built = viteBuild(['--minify', 'false']);
  return built;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, exited: Promise<unknown>): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!gone && Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/** Options of {@link startApp}. */
export interface StartAppOptions {
  /** Added to the server's environment (e.g. `AI_BASE_URL` and `AI_MODEL` for the assistant). */
  env?: Record<string, string>;
  /**
   * The embedded database's folder, kept when the server stops (the caller removes it): a
   * benchmark that seeds between two starts. A fresh folder, removed at stop, when absent.
   */
  dataDir?: string;
  /** The port; a free one when absent. A restart on the same folder keeps the browser's cookies. */
  port?: number;
}

/**
 * Serves the built app with Inkwell's own server (`server/main.ts`) with the embedded provider
 * and an embedded database (see {@link StartAppOptions}).
 */
export async function startApp(options: StartAppOptions = {}): Promise<RunningApp> {
  await buildApp();
  const port = options.port ?? (await freePort());
  const ownData = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'inkwell-bench-')));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      // Each round signs up a new account from this one address.
      IDP_SIGNUPS_PER_HOUR: '10000',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Tracked, so that a benchmark that crashes leaves no server behind.
  const exited = track(child).then(() => undefined);
  // The one host name sign-in works on: the server sends 127.0.0.1 here too.
  const url = `http://localhost:${port}`;
  const removeData = async () => {
    if (ownData) await rm(dataDir, { recursive: true, force: true });
  };
  if (await waitForHealth(url, exited)) {
    return {
      url,
      servedBy: 'server/main.ts',
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
        await removeData();
      },
    };
  }
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await exited;
  await removeData();
  const why = stderr.trim().split('\n').slice(-2).join(' | ') || 'no answer on /healthz';
  throw new AppUnavailableError(`Inkwell's server did not start: ${why}`);
}

/** Opens the editor route of the app with the probe installed, and waits for the editor. */
export async function openInkwell(
  context: BrowserContext,
  app: RunningApp,
  probePath: string,
): Promise<Page> {
  await context.addInitScript({ path: probePath });
  const open = async () => {
    const page = await context.newPage();
    await page.goto(`${app.url}/`, { timeout: READY_TIMEOUT_MS });
    // A new account on the embedded provider's page, then a new, empty document, as a writer starts.
    await signUp(page);
    await page.getByRole('button', { name: 'New document' }).first().click();
    await waitForLiveEditor(page, READY_TIMEOUT_MS);
    return page;
  };
  try {
    return await open();
  } catch {
    // Once more: another build may have been replacing dist/client while the page loaded.
    try {
      return await open();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new AppUnavailableError(`the editor did not appear at ${app.url}/: ${reason}`);
    }
  }
}

/** The editor's collaboration extension (client/features/live/collab/Collaboration.ts). */
const COLLABORATION_EXTENSION = 'inkwellCollaboration';

/** The Tiptap editor Tiptap hangs on its `.ProseMirror` element, as far as the bench reads it. */
type EditorRoot = HTMLElement & {
  editor?: { isEditable: boolean; extensionManager: { extensions: { name: string }[] } };
};

/**
 * Waits until the page's editor is the one on the live shared document: editable, with the
 * collaboration extension, and the status bar saying Saved (synced, nothing waiting). Before
 * that the app shows the saved copy read-only, which is not what a writer types into.
 */
export async function waitForLiveEditor(page: Page, timeoutMs = IMPORT_TIMEOUT_MS): Promise<void> {
  await page.waitForFunction(
    (extension) => {
      const root = document.querySelector<EditorRoot>('.ProseMirror[contenteditable="true"]');
      const editor = root?.editor;
      const saved = [...document.querySelectorAll('footer [role=status]')].some(
        (e) => e.textContent?.trim() === 'Saved',
      );
      return (
        'benchProbe' in window &&
        saved &&
        editor?.isEditable === true &&
        editor.extensionManager.extensions.some((e) => e.name === extension)
      );
    },
    COLLABORATION_EXTENSION,
    { timeout: timeoutMs },
  );
}

/**
 * Waits for the status bar's Saved (every update acknowledged by the server, which stores it
 * before it says so), then checks that the server's copy of the open document holds `text`.
 */
export async function expectSavedOnServer(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('footer [role=status]')].some(
        (e) => e.textContent?.trim() === 'Saved',
      ),
    undefined,
    { timeout: IMPORT_TIMEOUT_MS },
  );
  const held = await page.evaluate(async (wanted) => {
    const id = /^\/d\/([^/]+)/.exec(location.pathname)?.[1];
    if (!id) throw new Error(`no document in ${location.pathname}`);
    const response = await fetch(`/api/documents/${id}`);
    return (await response.text()).includes(wanted);
  }, text);
  if (!held) throw new Error(`the server's copy of the document lacks "${text}"`);
}

/** The least time a person takes to pick a file in the browser's file dialog. */
const PICKING_A_FILE_MS = 1_000;

/**
 * Imports a Markdown file as a writer does, from the document menu's "Import Markdown…" and the
 * file dialog it opens (the app makes a new document, creates it on the server and opens it
 * live), and resolves once the heading `headingText` has been painted in the editor on the
 * shared document (editable), with the milestones on the way, timed from the file's choice.
 * Opening the menu starts fetching the Markdown codec, as it does for the writer; the dialog is
 * left open as long as a person takes to pick a file.
 */
export async function importThroughUi(
  page: Page,
  path: string,
  headingText: string,
): Promise<ShownTimings> {
  await page.evaluate((text) => window.benchProbe.watch(text), headingText);
  await page.getByRole('button', { name: 'Document menu' }).click();
  const dialog = page.waitForEvent('filechooser');
  await page.getByRole('menuitem', { name: IMPORT_MENU_ITEM }).click();
  const chooser = await dialog;
  await page.waitForTimeout(PICKING_A_FILE_MS);
  await chooser.setFiles(path);
  return shownLive(page, headingText, `importing ${path}`);
}

/** The probe's timings once the watched heading is in the live editor, which is then waited for. */
async function shownLive(page: Page, headingText: string, after: string): Promise<ShownTimings> {
  const shown = await withTimeout(
    page.evaluate(() => window.benchProbe.shown()),
    IMPORT_TIMEOUT_MS,
    `the heading "${headingText}" did not appear in an editable editor after ${after}`,
  );
  await waitForLiveEditor(page);
  return shown;
}

/**
 * Imports the Markdown file at `path` as a writer dropping it on the editor, timed from the drop
 * (as {@link importThroughUi}): the file is in the page's memory first, and the drag enters, moves
 * and drops at once, so that nothing (the codec included) has loaded before the drop.
 */
export async function importByDrop(
  page: Page,
  path: string,
  headingText: string,
): Promise<ShownTimings> {
  const transfer = await page.evaluateHandle(
    ({ text, name }) => {
      const data = new DataTransfer();
      data.items.add(new File([text], name, { type: 'text/markdown' }));
      return data;
    },
    { text: readFileSync(path, 'utf8'), name: basename(path) },
  );
  await page.evaluate((text) => window.benchProbe.watch(text), headingText);
  await page.locator('.ProseMirror').evaluate((editor, data) => {
    const box = editor.getBoundingClientRect();
    const at = { clientX: box.left + box.width / 2, clientY: box.top + 20 };
    for (const type of ['dragenter', 'dragover', 'drop']) {
      editor.dispatchEvent(
        new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true, ...at }),
      );
    }
  }, transfer);
  return shownLive(page, headingText, `dropping ${path}`);
}

/** Rejects with `message` when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
