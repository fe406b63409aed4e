// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../../../../common/editor/extensions.ts';
import { LinkResolver } from './LinkResolver.ts';
import { embedSize, WikilinkView } from './WikilinkView.ts';

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

  it('shows the image an embed of an imported vault holds, sized by its alias, and keeps it', () => {
    const resolver = new LinkResolver(() => Promise.resolve([]));
    const src = '/files/0b0e8f0e-52f4-4f2a-9d35-6a3f4c1b2d3e';
    const view = new WikilinkView(
      wikilink({ target: 'sub/diagram.png', alias: '300', embed: true, src }),
      resolver,
    );
    const image = view.dom.querySelector('img')!;
    expect(view.dom.dataset.state).toBe('image');
    expect(image.getAttribute('src')).toBe(src);
    expect(image.alt).toBe('sub/diagram.png');
    expect(image.width).toBe(300);
    view.update(wikilink({ target: 'sub/diagram.png', alias: null, embed: true, src }));
    expect(view.dom.querySelector('img')).toBe(image);
    expect(image.hasAttribute('width')).toBe(false);
    view.update(wikilink({ target: 'sub/diagram.png', embed: true }));
    expect(view.dom.querySelector('img')).toBeNull();
    expect(view.dom.textContent).toBe('sub/diagram.png · not available yet');
    view.destroy();
  });

  it('says so when the image an embed shows cannot be loaded, keeping the embed', () => {
    const resolver = new LinkResolver(() => Promise.resolve([]));
    const src = '/files/0b0e8f0e-52f4-4f2a-9d35-6a3f4c1b2d3e';
    const view = new WikilinkView(wikilink({ target: 'gone.png', embed: true, src }), resolver);
    view.dom.querySelector('img')!.dispatchEvent(new Event('error'));
    expect(view.dom.dataset.state).toBe('file');
    expect(view.dom.textContent).toBe('gone.png · could not be loaded');
    expect(view.dom.title).toContain('could not be loaded');
    view.destroy();
  });

  it('reads Obsidian’s embed sizes and nothing else', () => {
    expect(embedSize('300')).toEqual({ width: 300 });
    expect(embedSize('300x200')).toEqual({ width: 300, height: 200 });
    expect(embedSize('a caption')).toEqual({});
    expect(embedSize(null)).toEqual({});
  });
});
