import { readFileSync } from 'node:fs';

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
