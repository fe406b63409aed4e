import { inkwellSchema } from '../../extensions.ts';
import { sanitizeDocJson } from '../../sanitizeDocJson.ts';
import { decodeMarkdownFile, parseMarkdown, serializeMarkdown } from '../index.ts';
import { missingWords, type WordOptions } from './missingWords.ts';
import type { SlipNote } from './slipNotes.ts';

/** How a text reaches the codec: as a file's bytes, or as a string (paste, AI answers). */
export type ImportPath = 'file' | 'paste';

const schema = inkwellSchema();

/**
 * A text imported, stored and exported again, or the error the import refused it with. As in a
 * real file, a lone surrogate arrives as U+FFFD (UTF-8 cannot hold one) and a NUL reaches the
 * decoder, which refuses binary-looking files; pasted, both reach the parser as they are. The
 * document goes through the checks a stored one gets (sanitizeDocJson), as on a save: a word
 * they would drop is lost as surely as one the import drops.
 */
export function importThenExport(
  text: string,
  path: ImportPath = 'file',
): { output: string } | { refused: unknown } {
  try {
    const decoded = path === 'file' ? decodeMarkdownFile(new TextEncoder().encode(text)) : text;
    const stored = sanitizeDocJson(parseMarkdown(decoded).toJSON());
    if (!stored) return { refused: new Error('') };
    return { output: serializeMarkdown(schema.nodeFromJSON(stored)) };
  } catch (error) {
    return { refused: error };
  }
}

/** A text that lost words, and which. */
export interface Loss {
  /** The text's name. */
  name: string;
  /** The words missing from the export, each as often as it is missing. */
  missing: string[];
}

/** What a set of texts came to: those that lost words, and how many were refused. */
export interface LossCount {
  lost: Loss[];
  refused: number;
}

/**
 * The texts that lose words (docs/PRODUCT.md, "Markdown": import never drops text silently). A
 * refusal is no loss when it is an Error with a message for the writer; any other throw loses all.
 */
export function countLosses(
  texts: ReadonlyArray<{ name: string; text: string }>,
  options?: WordOptions,
  path: ImportPath = 'file',
): LossCount {
  const lost: Loss[] = [];
  let refused = 0;
  for (const { name, text } of texts) {
    const result = importThenExport(text, path);
    if ('refused' in result) {
      refused++;
      const told = result.refused instanceof Error && result.refused.message.trim() !== '';
      if (!told)
        lost.push({ name: `${name} (refused without a message)`, missing: missingWords(text, '') });
      continue;
    }
    const missing = missingWords(text, result.output, options);
    if (missing.length > 0) lost.push({ name, missing });
  }
  return { lost, refused };
}

/** A title line and up to `examples` losing texts, with a few of their missing words each. */
export function lossReport(title: string, total: number, lost: Loss[], examples = 6): string {
  const lines = lost
    .slice(0, examples)
    .map((l) => `  ${l.name}: ${l.missing.length} words, e.g. ${l.missing.slice(0, 8).join(' ')}`);
  return [`${title}: ${lost.length} of ${total} lose words`, ...lines].join('\n');
}

/** Slipped notes named for reports: their index, the note and the slips made in it. */
export function namedSlipNotes(
  slipped: readonly SlipNote[],
): Array<{ name: string; text: string }> {
  return slipped.map((note, i) => ({
    name: `#${i} ${note.from} [${note.slips.join(', ')}]`,
    text: note.text,
  }));
}

/**
 * For each kind of slip, how many notes had it and how many of those lost words: a note has up
 * to three slips, so this is a lead, not a cause.
 */
export function slipTable(slipped: readonly SlipNote[], lost: readonly Loss[]): string[] {
  const losing = new Set(lost.map((loss) => Number(/^#(\d+)/.exec(loss.name)![1])));
  const bySlip = new Map<string, { with: number; losing: number }>();
  slipped.forEach((note, i) => {
    for (const slip of new Set(note.slips)) {
      const entry = bySlip.get(slip) ?? { with: 0, losing: 0 };
      entry.with++;
      if (losing.has(i)) entry.losing++;
      bySlip.set(slip, entry);
    }
  });
  return [...bySlip]
    .sort((a, b) => b[1].losing / b[1].with - a[1].losing / a[1].with)
    .map(([slip, n]) => `    ${slip.padEnd(24)} ${n.losing}/${n.with}`);
}
