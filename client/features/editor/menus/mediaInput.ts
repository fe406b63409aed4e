/** The result of reading one media field: a value to store, or why it cannot be stored. */
export type FieldResult<T> = { ok: true; value: T } | { ok: false; message: string };

const CLOCK = /^(?:(\d+):)?(\d{1,2}):(\d{1,2})$/;
const UNITS = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$/i;

/**
 * Reads a video start time: whole seconds (`90`), `m:ss` (`1:30`), `h:mm:ss` (`1:02:03`) or
 * YouTube's `1m30s`. Empty means the beginning.
 */
export function parseStartTime(raw: string): FieldResult<number> {
  const value = raw.trim();
  if (value === '') return { ok: true, value: 0 };
  const clock = CLOCK.exec(value);
  if (clock) {
    const [, hours, minutes, seconds] = clock;
    if (Number(seconds) >= 60 || (hours !== undefined && Number(minutes) >= 60)) {
      return { ok: false, message: 'Minutes and seconds go up to 59, as in 1:30.' };
    }
    return { ok: true, value: Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(seconds) };
  }
  const units = UNITS.exec(value);
  if (units) {
    const [, hours, minutes, seconds] = units;
    return {
      ok: true,
      value: Number(hours ?? 0) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0),
    };
  }
  return {
    ok: false,
    message: 'Write the start time in seconds (90) or as minutes:seconds (1:30).',
  };
}

/** Shows a start time in seconds the way people type it: `1:30`, or `1:02:03` past an hour. */
export function formatStartTime(seconds: number): string {
  if (seconds <= 0) return '';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The largest size, in CSS pixels, a media field accepts. */
export const MAX_PIXELS = 10_000;

/** Reads a size in pixels (`640` or `640px`); empty gives `null`, the natural size. */
export function parsePixels(raw: string): FieldResult<number | null> {
  const value = raw.trim();
  if (value === '') return { ok: true, value: null };
  const match = /^(\d+)(?:\s*px)?$/i.exec(value);
  const pixels = match ? Number(match[1]) : NaN;
  if (!(pixels >= 1 && pixels <= MAX_PIXELS)) {
    return {
      ok: false,
      message: `Write a size in pixels from 1 to ${MAX_PIXELS}, or leave it empty.`,
    };
  }
  return { ok: true, value: pixels };
}
