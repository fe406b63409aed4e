/** Resolves in a timeout set from the next animation frame: just after the browser painted. */
export function afterPaint(): Promise<number> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
  });
}
