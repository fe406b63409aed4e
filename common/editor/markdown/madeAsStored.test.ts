import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../extensions.ts';
import { sanitizeDocJson } from '../sanitizeDocJson.ts';
import { MarkdownImportError, parseMarkdown } from './index.ts';
import { namedSlipNotes } from './test/silentLoss.ts';
import { slipNotes } from './test/slipNotes.ts';
import { vaultNotes } from './test/vaultNotes.ts';

const { cases } = JSON.parse(
  readFileSync(
    new URL('../../../test-corpus/xss/dompurify-fixtures.json', import.meta.url),
    'utf8',
  ),
) as { cases: Array<{ title: string; payload: string }> };

/**
 * The names of the texts whose imported document the server's cleaning would change. An import
 * sends its Yjs state with the create, and the server refuses a state whose content its cleaning
 * changes (server/collab/createState.ts): such an import would be left read-only.
 */
function changedByStoring(texts: ReadonlyArray<{ name: string; text: string }>): string[] {
  const schema = inkwellSchema();
  const changed: string[] = [];
  for (const { name, text } of texts) {
    let made;
    try {
      made = parseMarkdown(text, schema).toJSON();
    } catch (error) {
      // Refused with its message (the vault holds such notes): nothing is made or stored.
      if (error instanceof MarkdownImportError) continue;
      throw error;
    }
    const cleaned = sanitizeDocJson(made);
    const stored = cleaned ? schema.nodeFromJSON(cleaned).toJSON() : null;
    if (JSON.stringify(stored) !== JSON.stringify(made)) changed.push(name);
  }
  return changed;
}

describe('a document imported from Markdown is already what the server stores', () => {
  it('for each DOMPurify payload (the codec drops raw HTML its sanitiser empties)', () => {
    const texts = cases.map(({ title, payload }, i) => ({
      name: `${i}: ${title}`,
      // Text first, as the browser test imports them: an empty result is a document too.
      text: `payload-${i}\n\n${payload}`,
    }));
    expect(changedByStoring(texts)).toEqual([]);
  });

  it('for tags the sanitiser empties, alone or merged with the text around them', () => {
    const texts = [
      '<script>alert(1)</script>',
      'a <img src=x onerror=alert(1)> b',
      'a <span onclick="x()"><script>alert(1)</script></span> b',
      'a <iframe src="javascript:alert(1)"></iframe> b',
    ].map((text) => ({ name: text, text }));
    expect(changedByStoring(texts)).toEqual([]);
  });

  it('for every note of the test vault, and notes with slips in them', () => {
    const notes = vaultNotes();
    expect(changedByStoring(notes)).toEqual([]);
    expect(changedByStoring(namedSlipNotes(slipNotes(notes, 14, 300)))).toEqual([]);
  });
});
