import type { CompareRequest, SentComparison } from './sendableComparison.ts';

/** What a comparison that failed says (the versions read are not documents, or too deep). */
const COULD_NOT_COMPARE = "The versions couldn't be compared.";

/** A comparison under way. */
export interface RunningComparison {
  result: Promise<SentComparison>;
  /** Stops it (another comparison was asked for, or the panel closed); `result` never settles. */
  cancel(): void;
}

/**
 * Reads and compares the two sides of `request` in a worker of its own, so that typing in the
 * page never waits for it; where there are no workers (unit tests), on this thread.
 */
export function runComparison(request: CompareRequest): RunningComparison {
  if (typeof Worker === 'undefined') {
    let cancelled = false;
    const result = import('./sendableComparison.ts').then(
      ({ compareSides }) =>
        new Promise<SentComparison>((resolve, reject) => {
          if (cancelled) return;
          try {
            resolve(compareSides(request));
          } catch {
            reject(new Error(COULD_NOT_COMPARE));
          }
        }),
    );
    return { result, cancel: () => (cancelled = true) };
  }
  const worker = new Worker(new URL('./compare.worker.ts', import.meta.url), { type: 'module' });
  const result = new Promise<SentComparison>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<SentComparison>) => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      reject(new Error(COULD_NOT_COMPARE));
    };
  });
  worker.postMessage(request);
  return { result, cancel: () => worker.terminate() };
}
