type IdleWindow = Window & {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/**
 * Runs `callback` when the browser is idle (at the latest after `timeout` ms); returns a
 * function that cancels it. Safari has no requestIdleCallback, so it falls back to a timer.
 */
export function whenIdle(callback: () => void, timeout = 1000): () => void {
  const w = window as IdleWindow;
  if (w.requestIdleCallback && w.cancelIdleCallback) {
    const handle = w.requestIdleCallback(callback, { timeout });
    const cancel = w.cancelIdleCallback;
    return () => cancel(handle);
  }
  const handle = window.setTimeout(callback, 50);
  return () => window.clearTimeout(handle);
}

/**
 * Resolves after the browser has painted the current DOM, so that a progress indicator shown
 * just before a long synchronous step is visible while that step runs.
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}

/**
 * Resolves once what the page is drawing has been painted and the browser is idle: for work
 * that would hold up the first view of a large document (serialising it, encoding its state).
 */
export function whenQuiet(): Promise<void> {
  return afterPaint().then(() => new Promise((resolve) => whenIdle(() => resolve())));
}
