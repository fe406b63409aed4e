import { afterAll } from 'vitest';

// Run before every test file (vitest.config.ts setupFiles). In a file on jsdom, Preact schedules
// the effects of a change made outside act() (a click's state change) for its next frame: an
// animation frame, or a 35 ms timer that then cancels the frame. On a busy machine the timer of
// a file's last test could fire after jsdom was taken down and fail the whole run on a missing
// cancelAnimationFrame (CI, 2026-11-29, ShareDialog.test.tsx). By the end of a file nothing is
// mounted any more: the wait only lets those timers end while jsdom is there.
if (typeof document !== 'undefined') {
  afterAll(() => new Promise((resolve) => setTimeout(resolve, 100)));
}
