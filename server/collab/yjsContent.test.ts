import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { JSONContent } from '@tiptap/core';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { parseMarkdown } from '../../common/editor/markdown/parseMarkdown.ts';
import { CARRIED_MARKS } from '../../common/editor/collab/inlineMarks.ts';
import { compactJson } from '../../common/editor/compactJson.ts';
import { canonicalContent, CONTENT_FIELD, contentOfYDoc, yDocFromContent } from './yjsContent.ts';
import type { DocumentContent } from '../../common/api/documents.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Real documents: the vault notes written for the codec's tests, the README files the installed
 * packages ship (pinned by package-lock.json) and the CommonMark spec's examples.
 */
function corpus(): Array<{ name: string; markdown: string }> {
  const found: Array<{ name: string; markdown: string }> = [];
  const walk = (dir: string, depth: number, accept: (path: string) => boolean) => {
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith('.')) continue;
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        if (depth > 0) walk(path, depth - 1, accept);
      } else if (accept(path)) {
        found.push({ name: path.slice(ROOT.length), markdown: readFileSync(path, 'utf8') });
      }
    }
  };
  walk(join(ROOT, 'common/editor/markdown/testdata/vault'), 5, (path) => path.endsWith('.md'));
  walk(join(ROOT, 'node_modules'), 2, (path) => /\/README\.md$/.test(path));
  const require = createRequire(import.meta.url);
  const { tests } = require('commonmark-spec') as {
    tests: Array<{ markdown: string; example: number }>;
  };
  for (const test of tests)
    found.push({ name: `commonmark ${test.example}`, markdown: test.markdown });
  return found;
}

/** JSON → Y.Doc → update bytes → a fresh Y.Doc → JSON, as a stored document goes on first open. */
function throughYjs(json: DocumentContent): DocumentContent {
  const update = Y.encodeStateAsUpdate(yDocFromContent(json));
  const loaded = new Y.Doc();
  Y.applyUpdate(loaded, update);
  return contentOfYDoc(loaded);
}

describe('converting stored JSON documents to Yjs', () => {
  it('loses nothing over a corpus of real documents', () => {
    const documents = corpus();
    expect(documents.length).toBeGreaterThan(700);
    const differing: string[] = [];
    let parsed = 0;
    for (const { name, markdown } of documents) {
      let json: DocumentContent;
      try {
        json = parseMarkdown(markdown).toJSON() as DocumentContent;
      } catch {
        continue; // beyond the codec's limits (too deep, too large): never stored either
      }
      parsed += 1;
      const back = throughYjs(json);
      if (!isDeepStrictEqual(back, canonicalContent(json))) {
        differing.push(name);
      }
    }
    expect(parsed).toBeGreaterThan(700);
    expect(differing).toEqual([]);
  });

  it('gives the same canonical JSON for a document stored twice without a change', () => {
    const json: DocumentContent = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
      ],
    };
    const doc = yDocFromContent(json);
    expect(JSON.stringify(contentOfYDoc(doc))).toBe(JSON.stringify(contentOfYDoc(doc)));
    expect(contentOfYDoc(doc)).toEqual(canonicalContent(json));
  });

  it('derives JSON without default attributes, as the editor sends it, that reads back the same', () => {
    const node = parseMarkdown(
      '## Title\n\nA [link](/x) and **bold**.\n\n- item\n\n```js\nrun();\n```\n',
    );
    const derived = contentOfYDoc(yDocFromContent(node.toJSON() as DocumentContent));
    expect(derived).toEqual(compactJson(node));
    expect(JSON.stringify(derived)).not.toContain(':null');
    expect(node.type.schema.nodeFromJSON(derived).eq(node)).toBe(true);
  });

  it('derives the smallest valid document from an empty Y.Doc', () => {
    expect(contentOfYDoc(new Y.Doc())).toEqual(
      canonicalContent({ type: 'doc', content: [{ type: 'paragraph' }] }),
    );
  });
});

describe('marks on nodes other than text', () => {
  const paragraphOf = (...content: JSONContent[]): DocumentContent => ({
    type: 'doc',
    content: [{ type: 'paragraph', content }],
  });
  const badge: JSONContent = {
    type: 'inlineImage',
    attrs: { src: 'https://example.com/badge.svg', alt: 'badge' },
    marks: [{ type: 'link', attrs: { href: 'https://example.com' } }],
  };

  // y-tiptap writes marks only for text; common/editor/collab/inlineMarks.ts carries the others.
  it('survive the conversion to Yjs and back: a linked badge, bold around a wikilink and math', () => {
    const json = paragraphOf(
      badge,
      { type: 'text', text: 'see ', marks: [{ type: 'bold' }] },
      { type: 'wikilink', attrs: { target: 'Other note' }, marks: [{ type: 'bold' }] },
      {
        type: 'mathInline',
        attrs: { tex: 'x^2' },
        marks: [{ type: 'link', attrs: { href: '/m' } }],
      },
    );
    expect(throughYjs(json)).toEqual(canonicalContent(json));
  });

  it('keeps the node and drops a carried mark the schema does not know', () => {
    const doc = yDocFromContent(paragraphOf(badge));
    const paragraph = doc.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement;
    const image = paragraph.get(0) as Y.XmlElement;
    image.setAttribute(
      CARRIED_MARKS,
      JSON.stringify([{ type: 'blink' }, { type: 'link', attrs: { href: 'https://example.com' } }]),
    );
    expect(contentOfYDoc(doc)).toEqual(canonicalContent(paragraphOf(badge)));
    image.setAttribute(CARRIED_MARKS, 'not a list');
    expect(contentOfYDoc(doc)).toEqual(canonicalContent(paragraphOf({ ...badge, marks: [] })));
  });
});
