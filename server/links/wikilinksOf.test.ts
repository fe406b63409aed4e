import { describe, expect, it } from 'vitest';
import { linkRowsOf } from './wikilinksOf.ts';

const link = (target: string, extra: Record<string, unknown> = {}) => ({
  type: 'wikilink',
  attrs: { target, fragment: '', alias: null, embed: false, ...extra },
});
const doc = (...inline: unknown[]) => ({
  type: 'doc',
  content: [{ type: 'callout', content: [{ type: 'paragraph', content: inline }] }],
});

describe('the links a document holds', () => {
  it('counts links per target, folded, at any depth, embeds of notes included', () => {
    const rows = linkRowsOf(
      doc(link('Plans'), link('plans.md', { embed: true }), link('Work/Plans', { alias: 'x' })),
    );
    expect(rows).toEqual([
      { path: 'plans', name: 'plans', links: 2 },
      { path: 'work/plans', name: 'plans', links: 1 },
    ]);
  });

  it('leaves out files, links inside the document, forged links and names longer than a title', () => {
    const rows = linkRowsOf(
      doc(
        link('photo.png', { embed: true }),
        link('', { fragment: '#Heading' }),
        link('a]]b'),
        link('n'.repeat(201)),
        link(`${'f'.repeat(300)}/Short`),
      ),
    );
    expect(rows).toEqual([{ path: 'short', name: 'short', links: 1 }]);
  });
});
