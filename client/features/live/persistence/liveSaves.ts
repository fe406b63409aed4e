import { isLeavingForSignIn } from '../../../lib/api.ts';

/** What the page needs of a document's saving (useLiveDocument.ts). */
export interface LiveSave {
  readonly hasUnsavedEdits: boolean;
  readonly isKeptLocally: boolean;
  flush(): Promise<void>;
  flushOnPageHide(): void;
  retryNow(): void;
  dispose(): void;
}

/** Longest wait (ms) for a save before going ahead anyway; the device's copy holds the rest. */
const FLUSH_WAIT_MS = 4000;

/** `save.flush()`, given up on after {@link FLUSH_WAIT_MS}: a stalled connection blocks nothing. */
function boundedFlush(save: LiveSave): Promise<void> {
  return Promise.race([
    save.flush().catch(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, FLUSH_WAIT_MS)),
  ]);
}

// The saves still running: the open document's, and those of documents left with edits not
// yet acknowledged (offline), which keep retrying until the server has them.
const live = new Map<string, LiveSave>();

function onPageHide(): void {
  for (const save of live.values()) save.flushOnPageHide();
}

function onVisibilityChange(): void {
  // Often the last moment a phone gives a page: save now rather than after the pause.
  if (document.visibilityState === 'hidden') for (const save of live.values()) void save.flush();
}

function onOnline(): void {
  for (const save of live.values()) save.retryNow();
}

function onBeforeUnload(event: BeforeUnloadEvent): void {
  const saves = [...live.values()];
  if (!saves.some((save) => save.hasUnsavedEdits)) return;
  // Going to sign in, with every edit in this device's copy: it is sent after signing in.
  if (isLeavingForSignIn() && saves.every((save) => save.isKeptLocally)) return;
  event.preventDefault();
  // Older browsers show the warning only when returnValue is set.
  event.returnValue = '';
}

function listen(on: boolean): void {
  const method = on ? 'addEventListener' : 'removeEventListener';
  window[method]('pagehide', onPageHide);
  window[method]('online', onOnline);
  window[method]('beforeunload', onBeforeUnload);
  document[method]('visibilitychange', onVisibilityChange);
}

/** Keeps `save` for `documentId` running with the page's events until it is removed. */
export function addLiveSave(documentId: string, save: LiveSave): void {
  live.get(documentId)?.dispose();
  if (live.size === 0) listen(true);
  live.set(documentId, save);
}

/** Forgets `save` (when it has stopped). */
export function removeLiveSave(documentId: string, save: LiveSave): void {
  if (live.get(documentId) !== save) return;
  live.delete(documentId);
  if (live.size === 0) listen(false);
}

/**
 * Saves the document's pending edits now, if it has any: before it goes to the
 * trash, before the page signs out, or before it is opened again.
 */
export async function flushLiveSave(documentId: string): Promise<void> {
  const save = live.get(documentId);
  if (save) await boundedFlush(save);
}

/** The documents open in this page with edits the server has not stored yet. */
export function documentsWithUnsavedEdits(): string[] {
  return [...live].filter(([, save]) => save.hasUnsavedEdits).map(([id]) => id);
}

/** Saves every document's pending edits now. */
export async function flushAllLiveSaves(): Promise<void> {
  await Promise.all([...live.values()].map(boundedFlush));
}

/** Stops every save, done or not: at sign-out, once what could be saved was. */
export function stopAllLiveSaves(): void {
  for (const save of [...live.values()]) save.dispose();
  live.clear();
  listen(false);
}

/**
 * Stops the save left running for a document that is being opened again, after one last
 * attempt: the new editor takes over from what the server and this device's copy then hold.
 */
export async function settleLiveSave(documentId: string): Promise<void> {
  const save = live.get(documentId);
  if (!save) return;
  await boundedFlush(save);
  save.dispose();
}
