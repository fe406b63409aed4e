import { describe, expect, it } from 'vitest';
import { isAttachment, renamedTarget, TitleIndex } from './wikilinkTarget.ts';
import { blockOf, headingOf, wikilinkLabel } from './wikilinkSyntax.ts';

const index = new TitleIndex([
  { id: 'plans', title: 'Plans' },
  { id: 'cafe', title: 'Café' },
  { id: 'slash', title: 'A/B testing' },
  { id: 'plans-2', title: 'plans' },
]);

describe('finding the document a wikilink points at', () => {
  it('matches titles regardless of case and Unicode form, the first of equal titles winning', () => {
    expect(index.resolve('plans')).toBe('plans');
    expect(index.resolve(' PLANS ')).toBe('plans');
    expect(index.resolve('CAFE\u0301')).toBe('cafe');
  });

  it('matches a path by its last segment, and a title with a slash whole', () => {
    expect(index.resolve('Projects/2024/Plans')).toBe('plans');
    expect(index.resolve('Plans.md')).toBe('plans');
    expect(index.resolve('a/b testing')).toBe('slash');
  });

  it('finds a path in its folder first, when documents carry their folders', () => {
    const vault = new TitleIndex([
      { id: 'top', title: 'Index' },
      { id: 'deep', title: 'Index', folder: 'Projects/2024/' },
    ]);
    expect(vault.resolve('Projects/2024/Index')).toBe('deep');
    expect(vault.resolve('Elsewhere/Index')).toBe('top');
    expect(vault.resolve('index')).toBe('top');
  });

  it('never resolves a file, nothing, or an unknown title', () => {
    expect(index.resolve('Plans.png')).toBeNull();
    expect(index.resolve('')).toBeNull();
    expect(index.resolve('Elsewhere')).toBeNull();
    expect(isAttachment('scan.PDF')).toBe(true);
    expect(isAttachment('Note.md')).toBe(false);
    expect(isAttachment('v1.2')).toBe(false);
  });

  it('rewrites a target for a new title, keeping its folders and .md', () => {
    expect(renamedTarget('plans', 'Plans', 'Roadmap')).toBe('Roadmap');
    expect(renamedTarget('work/Plans.md', 'Plans', 'Roadmap')).toBe('work/Roadmap.md');
    expect(renamedTarget('A/B testing', 'A/B testing', 'Split tests')).toBe('Split tests');
  });
});

describe('what a wikilink shows', () => {
  it('shows the alias, else the target and the heading or block', () => {
    expect(wikilinkLabel({ target: 'T', fragment: '#H', alias: 'see', embed: false })).toBe('see');
    expect(wikilinkLabel({ target: 'T', fragment: '#A#B', alias: null, embed: false })).toBe(
      'T › B',
    );
    expect(wikilinkLabel({ target: '', fragment: '#H', alias: null, embed: false })).toBe('H');
    expect(headingOf('#^id')).toBeNull();
    expect(blockOf('#^id')).toBe('id');
    expect(blockOf('^id')).toBe('id');
  });
});
