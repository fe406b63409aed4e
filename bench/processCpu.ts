import { readFileSync } from 'node:fs';

/** Linux's clock ticks per second, the unit of CPU times in `/proc/<pid>/stat`. */
const CLOCK_TICKS = 100;

/** CPU time (user + system, ms) each process has used so far; processes /proc cannot tell are left out. */
export function cpuSnapshot(pids: readonly number[]): Map<number, number> {
  const snapshot = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name, which may itself hold spaces, start after its `)`.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      snapshot.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS);
    } catch {
      // Gone, or not Linux: the figure says n/a rather than guessing.
    }
  }
  return snapshot;
}

/**
 * CPU ms spent between two snapshots by the processes of the second; one that started in between
 * counts from zero. NaN when nothing could be read.
 */
export function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  if (after.size === 0) return Number.NaN;
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}
