import type { Comparison } from './compareDocuments.ts';

/**
 * A comparison as the worker sends it: the compared document written out as one string. Copied
 * to the page as a structure, 1.2 MB of nodes took the page's thread a few hundred milliseconds
 * before the count of changes could show; a string is copied at once and read when it is drawn.
 */
export type SentComparison =
  | (Omit<Extract<Comparison, { kind: 'compared' }>, 'doc'> & { docJson: string })
  | Extract<Comparison, { kind: 'tooLarge' }>;

/** `comparison` as the worker sends it. */
export function sendable(comparison: Comparison): SentComparison {
  if (comparison.kind !== 'compared') return comparison;
  const { doc, ...rest } = comparison;
  return { ...rest, docJson: JSON.stringify(doc) };
}
