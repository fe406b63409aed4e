import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inkwellSchema } from './extensions.ts';
import { parseMarkdown } from './markdown/index.ts';
import { compactJson } from './compactJson.ts';

const schema = inkwellSchema();
const VAULT = fileURLToPath(new URL('./markdown/testdata/vault/', import.meta.url));

/** Every Markdown note of the test vault, with its path. */
function vaultNotes(dir = VAULT): [string, string][] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry): [string, string][] => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return vaultNotes(path);
    return entry.name.endsWith('.md') ? [[path, readFileSync(path, 'utf8')]] : [];
  });
}

describe('compactJson', () => {
  it('reads back as the same document for every note of the test vault, in fewer bytes', () => {
    const notes = vaultNotes();
    expect(notes.length).toBeGreaterThan(10);
    let full = 0;
    let compact = 0;
    for (const [path, markdown] of notes) {
      const doc = parseMarkdown(markdown, schema);
      const json = compactJson(doc);
      expect(schema.nodeFromJSON(json).eq(doc), path).toBe(true);
      full += JSON.stringify(doc.toJSON()).length;
      compact += JSON.stringify(json).length;
    }
    expect(compact).toBeLessThan(full * 0.9);
  });

  it('keeps an attribute that differs from its default, on nodes and on marks', () => {
    const doc = schema.nodeFromJSON({
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            {
              type: 'text',
              text: 'site',
              marks: [{ type: 'link', attrs: { href: 'https://example.com' } }],
            },
          ],
        },
        { type: 'heading', attrs: { level: 3 }, content: [{ type: 'text', text: 'H' }] },
      ],
    });
    const json = JSON.stringify(compactJson(doc));
    expect(json).toContain('"href":"https://example.com"');
    expect(json).toContain('"level":3');
    expect(json).not.toContain(':null');
    expect(schema.nodeFromJSON(JSON.parse(json)).eq(doc)).toBe(true);
  });
});
