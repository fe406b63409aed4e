import { createRequire } from 'node:module';
import { Schema, type Node as PMNode } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { attributeTypeProblem } from '../../common/editor/attributeTypes.ts';
import { inkwellSchema } from '../../common/editor/extensions.ts';
import { parseMarkdown } from '../../common/editor/markdown/index.ts';
import { serializeMarkdown } from '../../common/editor/markdown/serializeMarkdown.ts';
import { AttributeTypeError } from '../../common/editor/cleanDocJson.ts';
import { sanitizeDocJson } from '../../common/editor/sanitizeDocJson.ts';
import { attributeSites, wrongValues } from '../../common/test/attributeSites.ts';
import { seededRandom } from '../../common/test/seededRandom.ts';
import { documentNode, plainTextOf, schemaProblem, validateContent } from './validateContent.ts';

const schema = inkwellSchema();
const { tests: specExamples } = createRequire(import.meta.url)('commonmark-spec') as {
  tests: { markdown: string }[];
};

type Json = Record<string, unknown>;

/**
 * The reference: what ProseMirror itself accepts (`nodeFromJSON` then `check`), plus the type of
 * every attribute of every node and mark (attributeTypes.ts).
 */
function referenceAccepts(json: unknown): boolean {
  let doc: PMNode;
  try {
    doc = schema.nodeFromJSON(json);
    doc.check();
  } catch {
    return false;
  }
  let accepted = true;
  doc.descendants((node) => {
    for (const item of [node, ...node.marks]) {
      if (attributeTypeProblem(item.type.name, item.attrs) !== null) accepted = false;
    }
  });
  return accepted;
}

/** Whether some node or mark of `json` has an attribute of the wrong type. */
function attributeProblemIn(json: unknown): boolean {
  const wrong = (item: unknown) =>
    typeof item === 'object' &&
    item !== null &&
    attributeTypeProblem(String((item as Json).type), (item as Json).attrs) !== null;
  return nodesOf(json).some(
    (node) => wrong(node) || (Array.isArray(node.marks) && (node.marks as unknown[]).some(wrong)),
  );
}

const NODE_NAMES = [...Object.keys(schema.nodes), 'script', 'chunk', 'Paragraph'];
const MARKS: unknown[] = [
  { type: 'bold' },
  { type: 'italic' },
  { type: 'code' },
  { type: 'strike' },
  { type: 'link', attrs: { href: 'https://example.com' } },
  { type: 'link', attrs: { href: ['javascript:alert(1)'] } },
  { type: 'highlight', attrs: { color: '#ff0' } },
  { type: 'blink' },
  null,
  'bold',
];
const ATTRS: unknown[] = [
  { level: 0 },
  { level: 3 },
  { level: 7 },
  { level: '2' },
  { start: -1 },
  { start: 4 },
  { start: 1.5 },
  { language: { toString: 'x' } },
  { language: 'ts' },
  { colwidth: [120, null] },
  { colwidth: ['wide'] },
  { colspan: 2 },
  { checked: true },
  { checked: 'yes' },
  { tight: ['false'] },
  { src: 'https://example.com/a.png' },
  { html: '<b>x</b>' },
  { unknown: 1 },
  'attrs',
  null,
];
const CHILDREN: unknown[] = [
  { type: 'text', text: 'word' },
  { type: 'text', text: '' },
  { type: 'text' },
  { type: 'paragraph' },
  { type: 'paragraph', content: [{ type: 'text', text: 'line' }] },
  { type: 'heading', attrs: { level: 2 } },
  { type: 'heading' },
  { type: 'listItem', content: [{ type: 'paragraph' }] },
  { type: 'listItem' },
  { type: 'hardBreak' },
  { type: 'horizontalRule' },
  { type: 'image', attrs: { src: 'https://example.com/a.png' } },
  { type: 'tableCell', content: [{ type: 'paragraph' }] },
  { type: 'blockquote' },
  { type: 'codeBlock', content: [{ type: 'text', text: 'x = 1' }] },
  { type: 'htmlInline', attrs: { html: '<kbd>K</kbd>' } },
  5,
  null,
];

function nodesOf(json: unknown, found: Json[] = []): Json[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return found;
  found.push(json as Json);
  const { content } = json as Json;
  if (Array.isArray(content)) for (const child of content) nodesOf(child, found);
  return found;
}

/** `doc` with one random change somewhere in it. */
function mutate(doc: Json, next: () => number): Json {
  const copy = structuredClone(doc);
  const nodes = nodesOf(copy);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const node = pick(nodes);
  const content = Array.isArray(node.content) ? (node.content as unknown[]) : undefined;
  switch (Math.floor(next() * 9)) {
    case 0:
      if (node !== copy) node.type = pick(NODE_NAMES);
      break;
    case 1:
      node.marks = next() < 0.2 ? pick(MARKS) : [pick(MARKS), pick(MARKS)];
      break;
    case 2:
      node.attrs = pick(ATTRS);
      break;
    case 3:
      node.content = pick([[], 'x', {}, 0, undefined]);
      break;
    case 4:
      if (content) content.splice(Math.floor(next() * (content.length + 1)), 0, pick(CHILDREN));
      else node.content = [pick(CHILDREN)];
      break;
    case 5:
      if (content && content.length > 0) content.splice(Math.floor(next() * content.length), 1);
      break;
    case 6:
      if (content && content.length > 1) content.reverse();
      break;
    case 7:
      node.text = pick(['', 'x', 7]);
      break;
    default: {
      // A subtree moved into another node: the commonest way content lands in the wrong place.
      const from = pick(nodes);
      const to = pick(nodes);
      if (from !== copy && Array.isArray(to.content)) {
        (to.content as unknown[]).push(structuredClone(from));
      }
    }
  }
  return copy;
}

describe('schemaProblem', () => {
  const seeds = specExamples.map(({ markdown }) => parseMarkdown(markdown).toJSON() as Json);

  it('accepts every document the Markdown import makes', () => {
    for (const seed of seeds) expect(schemaProblem(schema, seed)).toBeNull();
  });

  it('decides as ProseMirror does on thousands of broken documents', () => {
    const next = seededRandom(20261121);
    let accepted = 0;
    let rejected = 0;
    let refusedTypes = 0;
    for (let round = 0; round < 6000; round++) {
      let mutant = seeds[round % seeds.length]!;
      for (let changes = 1 + Math.floor(next() * 3); changes > 0; changes--) {
        mutant = mutate(mutant, next);
      }
      // As on the way in: the attribute types and the link rule first, then the schema.
      let input: unknown;
      try {
        input = sanitizeDocJson(mutant, { wrongTypes: 'refuse' });
      } catch (error) {
        expect(error).toBeInstanceOf(AttributeTypeError);
        expect(attributeProblemIn(mutant), JSON.stringify(mutant)).toBe(true);
        refusedTypes++;
        continue;
      }
      if (!input) continue;
      const expected = referenceAccepts(input);
      expect(schemaProblem(schema, input) === null, JSON.stringify(mutant)).toBe(expected);
      // Repaired instead, as content read back is, the same document passes the type check.
      const repaired = sanitizeDocJson(mutant);
      expect(repaired && attributeProblemIn(repaired), JSON.stringify(mutant)).toBe(false);
      if (expected) accepted++;
      else rejected++;
    }
    // Both verdicts must be common, or the comparison proves little.
    expect(accepted).toBeGreaterThan(1000);
    expect(rejected).toBeGreaterThan(1000);
    expect(refusedTypes).toBeGreaterThan(100);
  });

  it('counts adjacent text with the same marks as one node, as ProseMirror joins them', () => {
    const oneText = new Schema({
      nodes: {
        doc: { content: 'line' },
        line: { content: 'text? pin' },
        text: { inline: true },
        pin: { inline: true },
      },
      marks: { bold: {} },
    });
    const line = (...text: unknown[]) => ({
      type: 'doc',
      content: [{ type: 'line', content: [...text, { type: 'pin' }] }],
    });
    const same = line({ type: 'text', text: 'a' }, { type: 'text', text: 'b' });
    const bold = [{ type: 'bold' }];
    const differ = line({ type: 'text', text: 'a' }, { type: 'text', text: 'b', marks: bold });
    expect(schemaProblem(oneText, same)).toBeNull();
    expect(schemaProblem(oneText, differ)).toBe('text (bold) cannot go in line there.');
    expect(() => oneText.nodeFromJSON(same).check()).not.toThrow();
    expect(() => oneText.nodeFromJSON(differ).check()).toThrow();
  });

  it('names what does not fit', () => {
    const doc = (...content: unknown[]) => ({ type: 'doc', content });
    expect(schemaProblem(schema, doc({ type: 'text', text: 'x' }))).toBe(
      'text cannot go in doc there.',
    );
    expect(schemaProblem(schema, doc({ type: 'script' }))).toBe('There is no node type script.');
    expect(schemaProblem(schema, doc({ type: 'blockquote' }))).toBe(
      'blockquote is missing content it needs.',
    );
    expect(
      schemaProblem(
        schema,
        doc({
          type: 'paragraph',
          content: [{ type: 'text', text: 'x', marks: [{ type: 'bold' }, { type: 'bold' }] }],
        }),
      ),
    ).toBe('These marks cannot go together: bold,bold.');
    expect(schemaProblem(schema, doc({ type: 'heading', attrs: { level: 9 } }))).toBe(
      'heading.level must be a whole number from 1 to 6, not 9.',
    );
  });
});

describe('validateContent', () => {
  it('keeps the column widths the editor reads from a pasted table', () => {
    const cell = (colwidth: unknown) => ({
      type: 'tableCell',
      attrs: { colspan: 1, rowspan: 1, colwidth, align: null },
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'a' }] }],
    });
    const table = (colwidth: unknown) => ({
      type: 'doc' as const,
      content: [{ type: 'table', content: [{ type: 'tableRow', content: [cell(colwidth)] }] }],
    });
    const valid = validateContent(table([200, null]));
    expect(documentNode(valid).firstChild!.firstChild!.firstChild!.attrs.colwidth).toEqual([
      200,
      null,
    ]);
    expect(() => validateContent(table([{ px: 200 }]))).toThrow(
      /colwidth must be a list of numbers and nulls, or null, not a list/,
    );
  });

  it('stores the input as it came when no rule removes anything', () => {
    const content = linkedDocument();
    const valid = validateContent(content);
    expect(valid.json).toBe(content);
    expect(valid.jsonText).toBe(JSON.stringify(content));
  });
});

describe('the type of every attribute', () => {
  const sites = attributeSites();

  it('refuses every attribute of every node and mark given a value of another type', () => {
    let refused = 0;
    for (const site of sites) {
      const name = `${site.type}.${site.attribute}`;
      expect(() => validateContent(site.document), name).not.toThrow();
      for (const value of wrongValues(site)) {
        const content = site.set(value);
        const what = `${name} = ${JSON.stringify(value)}`;
        expect(() => validateContent(content), what).toThrow(
          expect.objectContaining({ status: 422, code: 'invalid_document' }),
        );
        expect(() => validateContent(content), what).toThrow(`${name} must be`);
        // The live socket's check (schemaGuard.ts) refuses the same.
        expect(schemaProblem(schema, content), what).toContain(`${name} must be`);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(300);
  });

  it('repairs them in stored content, so that an export of it still answers', () => {
    for (const site of sites) {
      for (const value of wrongValues(site)) {
        const valid = validateContent(site.set(value), { stored: true });
        expect(typeof serializeMarkdown(documentNode(valid))).toBe('string');
        documentNode(valid).descendants((node) => {
          for (const item of [node, ...node.marks]) {
            expect(attributeTypeProblem(item.type.name, item.attrs)).toBeNull();
          }
        });
      }
    }
  });

  it('repairs a link whose href is a list into one without a target, and such an image into its alt text', () => {
    const link = validateContent(
      {
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            content: [
              {
                type: 'text',
                text: 'click',
                marks: [{ type: 'link', attrs: { href: ['javascript:alert(1)'] } }],
              },
              { type: 'inlineImage', attrs: { src: ['javascript:alert(1)'], alt: 'badge' } },
            ],
          },
        ],
      },
      { stored: true },
    );
    expect(JSON.stringify(link.json)).not.toContain('javascript');
    expect(plainTextOf(documentNode(link))).toBe('clickbadge');
  });
});

function linkedDocument() {
  return {
    type: 'doc' as const,
    content: [
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'see ' },
          {
            type: 'text',
            text: 'here',
            marks: [{ type: 'link', attrs: { href: 'https://example.com' } }],
          },
        ],
      },
    ],
  };
}

describe('plainTextOf', () => {
  it('keeps the source of tags and math for search, and a space for other leaves', () => {
    const doc = parseMarkdown('Filed under #area/health with $x^2$.\\\nNext line.\n');
    expect(plainTextOf(doc)).toBe('Filed under #area/health with $x^2$. Next line.');
  });
});
