import { describe, expect, it } from 'vitest';
import { compactJson } from '../compactJson.ts';
import { inkwellSchema } from '../extensions.ts';
import { sanitizeDocJson } from '../sanitizeDocJson.ts';
import { parseMarkdown } from './parseMarkdown.ts';
import { serializeMarkdown } from './serializeMarkdown.ts';
import { normaliseLine } from './test/changedLines.ts';
import { vaultNotes } from './test/vaultNotes.ts';

/**
 * What a vault import stores of a note (the codec's document, cleaned as the server cleans it
 * and kept as compact JSON, defaults left out) and what a vault export writes back from it.
 */
function importAndExport(markdown: string): { stored: unknown; exported: string } {
  const schema = inkwellSchema();
  const cleaned = sanitizeDocJson(parseMarkdown(markdown, schema).toJSON());
  if (!cleaned) throw new Error('the import made no document');
  const stored = JSON.parse(JSON.stringify(compactJson(schema.nodeFromJSON(cleaned)))) as unknown;
  return { stored, exported: serializeMarkdown(schema.nodeFromJSON(stored)) };
}

/**
 * `text` with the one rewrite of docs/PRODUCT.md "Markdown" that the test vault meets applied to
 * every line: bullets written as `-` (test/changedLines.ts, INTENDED). The other forms that list
 * names are not in the vault, so any of them here fails the test too.
 */
const intended = (text: string) => text.split('\n').map(normaliseLine).join('\n');

/** The first line where `a` and `b` differ, both shown, for the failure message. */
function firstDifference(a: string, b: string): string {
  const x = a.split('\n');
  const y = b.split('\n');
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return `line ${i + 1}: ${JSON.stringify(x[i])} came back as ${JSON.stringify(y[i])}`;
}

describe('an untouched vault exports with the bytes it came in with', () => {
  it('every note of the test vault, imported, stored and exported, but the intended rewrites', () => {
    const differ: string[] = [];
    for (const note of vaultNotes()) {
      const { stored, exported } = importAndExport(note.text);
      if (intended(exported) !== intended(note.text)) {
        differ.push(`${note.name}: ${firstDifference(note.text, exported)}`);
      }
      // A rewrite the comparison forgives must not change what the export reads back as.
      const again = importAndExport(exported).stored;
      if (JSON.stringify(again) !== JSON.stringify(stored)) {
        differ.push(`${note.name}: reads back as another document`);
      }
    }
    expect(differ).toEqual([]);
  });
});
