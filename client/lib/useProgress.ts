import { useCallback, useRef, useState } from 'react';
import { afterPaint } from './schedule.ts';

/** How long a task may take before its progress is shown (docs/PRODUCT.md "Markdown"). */
export const PROGRESS_DELAY_MS = 500;

/** Options of a task run with progress. */
export interface ProgressOptions {
  /**
   * Show the progress at once, for work known to block the main thread for long (a large file),
   * where the delay timer could not fire in time. The task starts at once too, and is given a
   * promise of the progress painted, to await before it blocks: what it loads or reads first
   * (a module, the file's bytes) overlaps the paint.
   */
  immediate?: boolean;
}

/** A task run with progress; `painted` resolves once its progress may be on screen. */
export type ProgressTask<T> = (painted: Promise<void>) => Promise<T>;

/** Runs tasks with a progress label that appears only when a task takes over half a second. */
export function useProgress() {
  const [label, setLabel] = useState<string | null>(null);
  const running = useRef(0);

  const run = useCallback(
    async <T>(text: string, task: ProgressTask<T>, options: ProgressOptions = {}): Promise<T> => {
      running.current += 1;
      const timer = window.setTimeout(() => setLabel(text), PROGRESS_DELAY_MS);
      let painted = Promise.resolve();
      if (options.immediate) {
        setLabel(text);
        painted = afterPaint();
      }
      try {
        return await task(painted);
      } finally {
        window.clearTimeout(timer);
        running.current -= 1;
        if (running.current === 0) setLabel(null);
      }
    },
    [],
  );

  return { label, run };
}
