// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../../../../common/editor/extensions.ts';
import { LinkResolver } from './LinkResolver.ts';
import { WikilinkView } from './WikilinkView.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const wikilink = (attrs: Record<string, unknown>) => inkwellSchema().nodes.wikilink!.create(attrs);

describe('a wikilink as the editor draws it', () => {
  it('shows the alias or title, solid once found, dimmed when not, never asking about a file', async () => {
    const asked: string[][] = [];
    const resolver = new LinkResolver(async (targets) => {
      asked.push(targets);
      return targets.map((target) => (target === 'Plans' ? { id: 'p', title: 'Plans' } : null));
    });
    const found = new WikilinkView(wikilink({ target: 'Plans', alias: 'the plan' }), resolver);
    const missing = new WikilinkView(wikilink({ target: 'Nowhere', fragment: '#Intro' }), resolver);
    const file = new WikilinkView(wikilink({ target: 'photo.png', embed: true }), resolver);
    expect(found.dom.dataset.state).toBe('pending');
    expect(found.dom.textContent).toBe('the plan');
    expect(missing.dom.textContent).toBe('Nowhere › Intro');
    expect(file.dom.dataset.state).toBe('file');
    expect(file.dom.textContent).toBe('photo.png · not available yet');
    await tick();
    await tick();
    expect(asked).toEqual([['Plans', 'Nowhere']]);
    expect(found.dom.dataset.state).toBe('resolved');
    expect(found.dom.title).toBe('Open “Plans”');
    expect(missing.dom.dataset.state).toBe('unresolved');
    expect(missing.dom.title).toContain('click to create it');
    for (const view of [found, missing, file]) view.destroy();
  });
});
