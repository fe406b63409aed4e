import { describe, expect, it } from 'vitest';
import { ATTRIBUTE_TYPES, attributeTypeProblem, schemaAttributes } from './attributeTypes.ts';
import { inkwellSchema } from './extensions.ts';
import { parseMarkdown } from './markdown/index.ts';
import { vaultNotes } from './markdown/test/vaultNotes.ts';

const schema = inkwellSchema();
const types = [...Object.values(schema.nodes), ...Object.values(schema.marks)];

describe('ATTRIBUTE_TYPES', () => {
  it('types every attribute of every node and mark of the schema, and nothing else', () => {
    const ofSchema = Object.fromEntries(
      types.map((type) => [type.name, Object.keys(type.spec.attrs ?? {}).sort()]),
    );
    const ofTable = Object.fromEntries(
      Object.entries(ATTRIBUTE_TYPES).map(([name, attributes]) => [
        name,
        Object.keys(attributes).sort(),
      ]),
    );
    expect(ofTable).toEqual(ofSchema);
  });

  it("takes every attribute's default", () => {
    for (const type of types) {
      const defaults = Object.fromEntries(
        Object.entries(type.spec.attrs ?? {}).map(([name, spec]) => [
          name,
          spec.default as unknown,
        ]),
      );
      expect(attributeTypeProblem(type.name, defaults), type.name).toBeNull();
    }
  });

  it('takes every attribute the Markdown import makes of the test vault', () => {
    for (const note of vaultNotes()) {
      parseMarkdown(note.text).descendants((node) => {
        for (const item of [node, ...node.marks]) {
          expect(attributeTypeProblem(item.type.name, item.attrs), note.name).toBeNull();
        }
      });
    }
  });
});

describe('attributeTypeProblem', () => {
  it('names the attribute, what it takes and what it has', () => {
    expect(attributeTypeProblem('link', { href: ['javascript:alert(1)'] })).toBe(
      'link.href must be a string or null, not a list.',
    );
    expect(attributeTypeProblem('heading', { level: '2' })).toBe(
      'heading.level must be a whole number from 1 to 6, not the string "2".',
    );
    expect(attributeTypeProblem('codeBlock', { language: { name: 'ts' } })).toBe(
      'codeBlock.language must be a string or null, not an object.',
    );
    expect(attributeTypeProblem('taskItem', { checked: 'true' })).toBe(
      'taskItem.checked must be true or false, not the string "true".',
    );
    expect(attributeTypeProblem('taskItem', { checked: null })).toBe(
      'taskItem.checked must be true or false, not null.',
    );
  });

  it('leaves out attributes not given, attributes the type lacks and types the schema lacks', () => {
    expect(attributeTypeProblem('heading', {})).toBeNull();
    expect(attributeTypeProblem('heading', { level: 2, id: ['x'] })).toBeNull();
    expect(attributeTypeProblem('script', { src: ['x'] })).toBeNull();
    expect(attributeTypeProblem('toString', { src: ['x'] })).toBeNull();
  });
});

describe('schemaAttributes', () => {
  it('drops attributes the type lacks, and returns the same object when there are none', () => {
    const attrs = { href: 'https://example.com', title: null };
    expect(schemaAttributes('link', attrs, false)).toBe(attrs);
    expect(schemaAttributes('link', { ...attrs, onclick: 'x' }, false)).toEqual(attrs);
  });

  it('leaves a value of the wrong type for the caller to refuse, unless told to repair', () => {
    const attrs = { href: ['javascript:alert(1)'], title: 2024 };
    expect(schemaAttributes('link', attrs, false)).toBe(attrs);
    // A number where a string belongs is read as one: Tiptap reads `title="2024"` as 2024.
    expect(schemaAttributes('link', attrs, true)).toEqual({ title: '2024' });
    expect(schemaAttributes('heading', { level: '2', textAlign: true }, true)).toEqual({
      textAlign: 'true',
    });
  });
});
