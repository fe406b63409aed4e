import { describe, expect, it } from 'vitest';
import {
  addProperty,
  readProperties,
  removeProperty,
  setProperty,
  sourceProblem,
} from './properties.ts';

const SOURCE =
  '# Obsidian properties\ntitle: Trip notes # shown in the list\ncount: 3\ntags: [travel, spain]\naliases:\n  - Trip\n  - Spain 2024\nplace:\n  city: Seville\n';

describe('front matter properties', () => {
  it('reads scalars, lists and nested values as keys and values', () => {
    expect(readProperties(SOURCE)).toEqual({
      ok: true,
      properties: [
        { key: 'title', value: 'Trip notes', kind: 'text' },
        { key: 'count', value: '3', kind: 'text' },
        { key: 'tags', value: 'travel, spain', kind: 'list' },
        { key: 'aliases', value: 'Trip, Spain 2024', kind: 'list' },
        { key: 'place', value: 'city: Seville', kind: 'other' },
      ],
    });
  });

  it('leaves a multi-line value to the source, where its line breaks survive', () => {
    expect(readProperties('note: |\n  one\n  two\n')).toEqual({
      ok: true,
      properties: [{ key: 'note', value: '|\n  one\n  two', kind: 'other' }],
    });
  });

  it('reports invalid YAML instead of reading it', () => {
    const read = readProperties('key: [unclosed\n');
    expect(read.ok).toBe(false);
  });

  it('reports YAML that is no mapping', () => {
    expect(readProperties('- a\n- b\n').ok).toBe(false);
  });

  it('edits one value and keeps comments, order and the style of the rest', () => {
    const edited = setProperty(SOURCE, 'title', 'Seville notes');
    expect(edited).toBe(SOURCE.replace('Trip notes', 'Seville notes'));
  });

  it('keeps a number a number and a flow list a flow list', () => {
    expect(setProperty(SOURCE, 'count', '4')).toContain('count: 4\n');
    expect(setProperty(SOURCE, 'tags', 'travel, spain, food')).toContain(
      'tags: [travel, spain, food]\n',
    );
  });

  it('adds a property at the end, also to empty front matter', () => {
    expect(addProperty('a: 1\n', 'status', 'draft')).toBe('a: 1\nstatus: draft\n');
    expect(addProperty('', 'status', 'draft')).toBe('status: draft\n');
  });

  it('removes a property and leaves the others', () => {
    expect(removeProperty('a: 1\nb: 2\n', 'a')).toBe('b: 2\n');
    expect(removeProperty('a: 1\n', 'a')).toBe('');
  });

  it('refuses source with a fence line in it', () => {
    expect(sourceProblem('a: 1\n---\nb: 2\n')).not.toBeNull();
    expect(sourceProblem('a: "---"\n')).toBeNull();
  });
});
