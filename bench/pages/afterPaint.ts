/**
 * Resolves in a timeout set from the next animation frame, just after the browser painted, with
 * when that was and when the frame began (the animation frame's own time: the display's tick).
 */
export function afterPaintOfFrame(): Promise<{ frame: number; painted: number }> {
  return new Promise((resolve) => {
    requestAnimationFrame((frame) =>
      setTimeout(() => resolve({ frame, painted: performance.now() }), 0),
    );
  });
}

/** Resolves in a timeout set from the next animation frame: just after the browser painted. */
export function afterPaint(): Promise<number> {
  return afterPaintOfFrame().then(({ painted }) => painted);
}
