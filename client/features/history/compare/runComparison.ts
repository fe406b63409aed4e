import type { JSONContent } from '@tiptap/core';
import type { CompareRequest } from './compare.worker.ts';
import type { CompareSchema } from './compareDocuments.ts';
import type { SentComparison } from './sendableComparison.ts';

/** A comparison under way. */
export interface RunningComparison {
  result: Promise<SentComparison>;
  /** Stops it (another comparison was asked for, or the panel closed); `result` never settles. */
  cancel(): void;
}

/**
 * Compares `older` with `newer` in a worker of its own, so that typing in the page never waits
 * for it; where there are no workers (unit tests), on this thread.
 */
export function runComparison(
  older: JSONContent,
  newer: JSONContent,
  schema: CompareSchema,
): RunningComparison {
  if (typeof Worker === 'undefined') {
    let cancelled = false;
    const result = Promise.all([
      import('./compareDocuments.ts'),
      import('./sendableComparison.ts'),
    ]).then(
      ([{ compareDocuments }, { sendable }]) =>
        new Promise<SentComparison>((resolve) => {
          if (!cancelled) resolve(sendable(compareDocuments(older, newer, { schema })));
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
      reject(new Error("The versions couldn't be compared."));
    };
  });
  worker.postMessage({ older, newer, schema } satisfies CompareRequest);
  return { result, cancel: () => worker.terminate() };
}
