/**
 * The callout families of Obsidian, each with the type names that read as it; GitHub's five
 * alert types (NOTE, TIP, IMPORTANT, WARNING, CAUTION) are among them in upper case.
 */
export const CALLOUT_FAMILIES = {
  note: ['note'],
  abstract: ['abstract', 'summary', 'tldr'],
  info: ['info'],
  todo: ['todo'],
  tip: ['tip', 'hint', 'important'],
  success: ['success', 'check', 'done'],
  question: ['question', 'help', 'faq'],
  warning: ['warning', 'caution', 'attention'],
  failure: ['failure', 'fail', 'missing'],
  danger: ['danger', 'error'],
  bug: ['bug'],
  example: ['example'],
  quote: ['quote', 'cite'],
} as const;

/** A callout family: decides the icon and colour. */
export type CalloutFamily = keyof typeof CALLOUT_FAMILIES;

const FAMILY_OF = new Map<string, CalloutFamily>(
  Object.entries(CALLOUT_FAMILIES).flatMap(([family, names]) =>
    names.map((name) => [name, family as CalloutFamily] as const),
  ),
);

/** The family of a type as written, in any case; a type nobody knows reads as a note, as in Obsidian. */
export function calloutFamily(type: string): CalloutFamily {
  return FAMILY_OF.get(type.toLowerCase()) ?? 'note';
}

/** GitHub's alert types, written in upper case. */
export const GITHUB_ALERT_TYPES = ['NOTE', 'TIP', 'IMPORTANT', 'WARNING', 'CAUTION'] as const;

/** A callout type: letters, digits, `_` and `-`, as Obsidian reads `[!type]`. */
export const CALLOUT_TYPE = /^[\w-]+$/;
