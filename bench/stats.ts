/** The value below which `p` (0–1) of the sorted samples fall, by linear interpolation. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (sorted.length - 1) * p;
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lowValue = sorted[low] ?? Number.NaN;
  const highValue = sorted[high] ?? Number.NaN;
  return lowValue + (highValue - lowValue) * (rank - low);
}

/** The median of the samples (NaN when there are none). */
export function median(samples: readonly number[]): number {
  return percentile(samples, 0.5);
}

/** The 95th percentile of the samples (NaN when there are none). */
export function p95(samples: readonly number[]): number {
  return percentile(samples, 0.95);
}

/** The largest sample, or NaN when there are none. */
export function max(samples: readonly number[]): number {
  return samples.length === 0 ? Number.NaN : Math.max(...samples);
}

/** Milliseconds with a precision that suits their size: `0.42 ms`, `12.3 ms`, `1234 ms`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

/** Events per second: `87.4/s`, `1234/s`. */
export function formatRate(perSecond: number): string {
  if (!Number.isFinite(perSecond)) return 'n/a';
  return perSecond < 100 ? `${perSecond.toFixed(1)}/s` : `${Math.round(perSecond)}/s`;
}

/** A byte count in decimal kB or MB, as the fixture sizes are named. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(2)} MB`;
  return `${(bytes / 1000).toFixed(1)} kB`;
}

/** `measured / baseline` as `1.23×`, or `n/a` when either is missing. */
export function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : 'n/a';
}
