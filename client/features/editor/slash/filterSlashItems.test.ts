// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { filterSlashItems } from './filterSlashItems.ts';
import { SLASH_ITEMS, slashItemsFor } from './slashItems.ts';

const titles = (query: string) => slashItemsFor(query).map((item) => item.title);

describe('slash item filter', () => {
  it('lists every block and the AI entries for an empty query, without the per-language code blocks', () => {
    expect(titles('')).toEqual([
      'Text',
      'Heading 1',
      'Heading 2',
      'Heading 3',
      'Heading 4',
      'Heading 5',
      'Heading 6',
      'Bullet list',
      'Numbered list',
      'Task list',
      'Quote',
      'Callout',
      'Code block',
      'Table',
      'Divider',
      'Image',
      'Upload image',
      'YouTube video',
      'Properties',
      'Inline math',
      'Math block',
      'Continue writing',
      'Ask AI',
    ]);
  });

  it('finds blocks by keyword first: h2, todo, hr, video', () => {
    expect(titles('h2')[0]).toBe('Heading 2');
    expect(titles('todo')[0]).toBe('Task list');
    expect(titles('hr')[0]).toBe('Divider');
    expect(titles('video')[0]).toBe('YouTube video');
    expect(titles('ul')[0]).toBe('Bullet list');
  });

  it('matches titles by prefix, word prefix and case-insensitively', () => {
    expect(titles('Head').slice(0, 6)).toEqual([
      'Heading 1',
      'Heading 2',
      'Heading 3',
      'Heading 4',
      'Heading 5',
      'Heading 6',
    ]);
    expect(titles('heading3')[0]).toBe('Heading 3');
    expect(titles('list')).toEqual(['Bullet list', 'Numbered list', 'Task list']);
    expect(titles('TAB')[0]).toBe('Table');
  });

  it('offers a code block per language once two letters name it', () => {
    expect(titles('py')).toContain('Python code block');
    expect(titles('js')[0]).toBe('JavaScript code block');
    expect(titles('c++')[0]).toBe('C++ code block');
    expect(titles('p')).not.toContain('Python code block');
    expect(titles('code')).toEqual(['Code block']);
  });

  it('returns nothing when no block matches', () => {
    expect(titles('zzz')).toEqual([]);
  });

  it('keeps the menu order between equally good matches', () => {
    const items = [
      { title: 'Beta', keywords: ['x'] },
      { title: 'Alpha', keywords: ['x'] },
    ];
    expect(filterSlashItems(items, 'x').map((item) => item.title)).toEqual(['Beta', 'Alpha']);
  });

  it('gives every item a unique id', () => {
    expect(new Set(SLASH_ITEMS.map((item) => item.id)).size).toBe(SLASH_ITEMS.length);
  });
});
