import { readFileSync, writeFileSync } from 'node:fs';

/** Peak (VmHWM) and current (VmRSS) resident memory of a process, from /proc (NaN elsewhere). */
export function memoryOf(pid: number | undefined): { peak: number; now: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) =>
      Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]) * 1024;
    return { peak: kb('VmHWM'), now: kb('VmRSS') };
  } catch {
    return { peak: Number.NaN, now: Number.NaN };
  }
}

/**
 * Resets a process's peak resident size (VmHWM) to its current size (Linux's `clear_refs` 5),
 * so that a later peak belongs to what ran in between. False when the kernel refused.
 */
export function resetPeak(pid: number | undefined): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
