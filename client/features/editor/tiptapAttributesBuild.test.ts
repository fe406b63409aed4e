import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  getAttributesFromExtensions,
  resolveExtensions,
  getRenderedAttributes,
  mergeAttributes,
  type ExtensionAttribute,
} from '@tiptap/core';
import type { Mark as ProseMirrorMark, Node as ProseMirrorNode } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import viteConfig from '../../../vite.config.ts';
import { attributeSites } from '../../../common/test/attributeSites.ts';
import { seededRandom } from '../../../common/test/seededRandom.ts';
import { contentExtensions, inkwellSchema } from '../../../common/editor/extensions.ts';
import {
  MERGE_ATTRIBUTES,
  RENDERED_ATTRIBUTES,
  TIPTAP_MERGE,
  TIPTAP_RENDERED,
} from '../../../scripts/tiptapAttributes.ts';

// The browser build draws with faster copies of two @tiptap/core helpers (scripts/tiptapAttributes.ts).
// Here they are run beside Tiptap's own (the tests use the package as published) on the same
// inputs, and must give the very same attributes, in the same order.

const require = createRequire(import.meta.url);
/** The ES module of @tiptap/core that the browser build transforms. */
const corePath = require.resolve('@tiptap/core').replace(/index\.c?js$/, 'index.js');
const core = readFileSync(corePath, 'utf8');

/** Tiptap's private style helpers, from its module: the copy calls them as Tiptap's does. */
function tiptapFunction(name: string): string {
  const found = new RegExp(`function ${name}\\([^)]*\\) \\{\\n[\\s\\S]*?\\n\\}\\n`).exec(core);
  if (!found) throw new Error(`@tiptap/core has no ${name}`);
  return found[0];
}

type Merge = typeof mergeAttributes;
type Rendered = (
  item: ProseMirrorNode | ProseMirrorMark,
  attributes: ExtensionAttribute[],
) => Record<string, unknown>;

const copies = new Function(
  `${tiptapFunction('splitStyleDeclarations')}${tiptapFunction('parseStyleEntries')}` +
    `${MERGE_ATTRIBUTES}${RENDERED_ATTRIBUTES}return { mergeAttributes, getRenderedAttributes };`,
)() as { mergeAttributes: Merge; getRenderedAttributes: Rendered };

/** Keys in order, each with its value: what the DOM gets, attribute after attribute. */
const entries = (attributes: Record<string, unknown>) =>
  Reflect.ownKeys(attributes).map((key) => [key, attributes[key as string]]);

const KEYS = ['class', 'style', 'id', 'data-x', 'title', '__proto__', 'href'];
const VALUES = [
  '',
  'a',
  'a b',
  'b c a',
  'color: red',
  'color: blue; margin: 0',
  'background: url(a;b); color: red',
  0,
  1,
  null,
  undefined,
  false,
  true,
  'x:y;z',
];

describe('the browser build’s copies of Tiptap’s attribute helpers', () => {
  it('replaces them in @tiptap/core, and only there', () => {
    expect(TIPTAP_MERGE.test(core)).toBe(true);
    expect(TIPTAP_RENDERED.test(core)).toBe(true);
    const plugin = (viteConfig.plugins ?? [])
      .flat()
      .find(
        (p) =>
          typeof p === 'object' && p !== null && 'name' in p && p.name.includes('fast-attributes'),
      );
    const { filter, handler } = (
      plugin as unknown as {
        transform: {
          filter: { id: RegExp };
          handler: (code: string, id: string) => { code: string };
        };
      }
    ).transform;
    expect(filter.id.test(corePath)).toBe(true);
    expect(filter.id.test(corePath.replace('core', 'react'))).toBe(false);
    const built = handler(core, corePath).code;
    expect(built).toContain(MERGE_ATTRIBUTES);
    expect(built).toContain(RENDERED_ATTRIBUTES);
    expect(built.match(/function mergeAttributes\(/g)).toHaveLength(1);
    expect(built.match(/function getRenderedAttributes\(/g)).toHaveLength(1);
    expect(() => handler('export const nothing = 1;', corePath)).toThrow(/not found/);
  });

  it('merges as Tiptap merges: 5,000 random sets of classes, styles and others', () => {
    const random = seededRandom(25);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    for (let round = 0; round < 5000; round++) {
      const objects = Array.from({ length: Math.floor(random() * 5) }, () => {
        if (random() < 0.1) return pick([null, undefined]);
        const object: Record<string, unknown> = {};
        for (let key = Math.floor(random() * 4); key > 0; key--) {
          const name = pick(KEYS);
          if (name === '__proto__') {
            Object.defineProperty(object, name, {
              value: pick(VALUES),
              enumerable: true,
              configurable: true,
              writable: true,
            });
          } else {
            object[name] = pick(VALUES);
          }
        }
        return object;
      }) as Record<string, unknown>[];
      // Tiptap throws on some (a class of `true` merged with another): so must the copy.
      const outcome = (merge: Merge) => {
        try {
          const merged = merge(...objects);
          return {
            prototype: Object.getPrototypeOf(merged) === Object.prototype,
            entries: entries(merged),
          };
        } catch (error) {
          return { threw: String(error) };
        }
      };
      expect(outcome(copies.mergeAttributes), JSON.stringify(objects)).toEqual(
        outcome(mergeAttributes),
      );
    }
  });

  it('renders every attribute of every node and mark of the schema as Tiptap does', () => {
    const schema = inkwellSchema();
    const attributes = getAttributesFromExtensions(resolveExtensions(contentExtensions()));
    let compared = 0;
    for (const site of attributeSites()) {
      const doc = schema.nodeFromJSON(site.document);
      doc.descendants((node) => {
        for (const item of [node, ...node.marks]) {
          expect(entries(copies.getRenderedAttributes(item, attributes))).toEqual(
            entries(getRenderedAttributes(item, attributes)),
          );
          compared++;
        }
      });
    }
    expect(compared).toBeGreaterThan(500);
  });
});
