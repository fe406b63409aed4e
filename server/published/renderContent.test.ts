import { describe, expect, it } from 'vitest';
import type { DocumentContent } from '../../common/api/documents.ts';
import { inkwellSchema } from '../../common/editor/extensions.ts';
import { parseMarkdown } from '../../common/editor/markdown/index.ts';
import { vaultNotes } from '../../common/editor/markdown/test/vaultNotes.ts';
import { ANY_VALUES, attributeSites } from '../../common/test/attributeSites.ts';
import { documentNode, validateContent } from '../documents/validateContent.ts';
import { PageFiles } from './pageUrls.ts';
import { numberFootnotes, pageSpecs, renderContent } from './renderContent.ts';

const TOKEN = 'T'.repeat(43);
const FILE = '0b3f0b9e-5c1a-4d2e-8f00-0123456789ab';

/** The page's HTML for Markdown, as a stored document of it renders. */
function rendered(markdown: string) {
  return renderContent(parseMarkdown(markdown), new PageFiles(TOKEN));
}

/** The page's HTML for stored JSON, read as the page reads it. */
function renderedJson(content: DocumentContent) {
  const doc = documentNode(validateContent(content, { stored: true }));
  return renderContent(doc, new PageFiles(TOKEN));
}

describe('renderContent', () => {
  it('has what to write for every node and mark type of the schema', () => {
    const schema = inkwellSchema();
    const { nodes, marks } = pageSpecs(new PageFiles(TOKEN), numberFootnotes(parseMarkdown('')));
    const written = ['doc', 'text', ...Object.keys(nodes)].sort();
    expect(written).toEqual(Object.keys(schema.nodes).sort());
    expect(Object.keys(marks).sort()).toEqual(Object.keys(schema.marks).sort());
  });

  it('renders every note of the test vault', () => {
    for (const note of vaultNotes()) {
      const { html } = rendered(note.text);
      expect(html, note.name).not.toMatch(/<script|javascript:|\son\w+=/i);
    }
  });

  it('renders any value of any attribute a stored document may hold without a script URL', () => {
    for (const site of attributeSites()) {
      for (const value of ANY_VALUES) {
        const { html } = renderedJson(site.set(value));
        expect(html, `${site.type}.${site.attribute}`).not.toContain('javascript:');
      }
    }
  });

  it('writes wikilinks as text, never as links to the writer’s other documents', () => {
    const { html } = rendered('See [[Private plans#Budget|the plan]] and [[Diary]].');
    expect(html).toBe(
      '<p>See <span class="wikilink">the plan</span> and <span class="wikilink">Diary</span>.</p>',
    );
  });

  it('serves uploaded images under the page’s address and remembers which', () => {
    const { html, fileIds } = rendered(
      `![Chart](/files/${FILE.toUpperCase()} "Q3") and [the file](/files/${FILE})`,
    );
    const address = `/p/${TOKEN}/files/${FILE}`;
    expect(html).toContain(`<img src="${address}" alt="Chart" title="Q3"`);
    expect(html).toContain(`<a href="${address}" rel="noopener noreferrer nofollow ugc">`);
    expect([...fileIds]).toEqual([FILE]);
  });

  it('shows only images it may load without the reader’s session, else their alt text', () => {
    const { html } = rendered(
      '![a](https://example.com/a.png) ![b](http://example.com/b.png) ![c](./c.png) ![d](/api/me)',
    );
    expect(html).toContain('<img src="https://example.com/a.png" alt="a"');
    expect(html).toContain(
      '<span class="image-missing">b</span> <span class="image-missing">c</span> <span class="image-missing">d</span>',
    );
  });

  it('writes links with the link rule and no handle on the page', () => {
    const { html } = renderedJson({
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            {
              type: 'text',
              text: 'out',
              marks: [{ type: 'link', attrs: { href: 'https://example.com', target: '_blank' } }],
            },
          ],
        },
      ],
    });
    expect(html).toBe(
      '<p><a href="https://example.com" rel="noopener noreferrer nofollow ugc">out</a></p>',
    );
  });

  it('leaves out comments, properties and link definitions', () => {
    const { html } = rendered(
      '---\nsecret: 1\n---\n\nText %%a private aside%% here.\n\n%%\nblock aside\n%%\n\n[ref]: https://example.com\n',
    );
    expect(html).toBe('<p>Text  here.</p>');
  });

  it('numbers footnotes by first reference and links them', () => {
    const { html } = rendered('One[^b] two^[inline] three[^b].\n\n[^b]: The note.\n');
    expect(html).toContain('<a href="#fn-1" id="fnref-1">1</a>');
    expect(html).toContain('<a href="#fn-2" id="fnref-2">2</a>');
    expect(html).toContain('three<sup class="footnote-ref"><a href="#fn-1">1</a></sup>');
    expect(html).toContain(
      '<div class="footnote" id="fn-1"><span class="footnote-label">1.</span>',
    );
    expect(html).toContain('<li id="fn-2" value="2">inline</li>');
  });

  it('typesets math as MathML, and shows TeX it cannot read as its source', () => {
    expect(rendered('$x^2$').html).toContain('<msup><mi>x</mi><mn>2</mn></msup>');
    expect(rendered('$\\frac{$').html).toContain('<code class="math-source">\\frac{</code>');
    expect(rendered('$\\href{javascript:alert(1)}{x}$').html).not.toMatch(/<a\b|href=/);
  });

  it('folds callouts without script and shows a video as a link', () => {
    const callout = rendered('> [!warning]- Mind the step\n> Careful.\n').html;
    expect(callout).toBe(
      '<details class="callout callout-warning"><summary class="callout-title">Mind the step</summary><div class="callout-body"><p>Careful.</p></div></details>',
    );
    const video = renderedJson({
      type: 'doc',
      content: [
        {
          type: 'youtube',
          attrs: { src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=42' },
        },
      ],
    }).html;
    expect(video).toBe(
      '<p class="video"><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ&amp;t=42s" rel="noopener noreferrer nofollow ugc">Watch the video on YouTube</a></p>',
    );
  });

  it('writes colours and alignment through the style allow-list only', () => {
    const { html } = renderedJson({
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          attrs: { textAlign: 'center' },
          content: [
            {
              type: 'text',
              text: 'red',
              marks: [{ type: 'textStyle', attrs: { color: 'red; position: fixed' } }],
            },
            {
              type: 'text',
              text: 'blue',
              marks: [{ type: 'textStyle', attrs: { color: '#00f' } }],
            },
          ],
        },
      ],
    });
    expect(html).toBe(
      '<p class="align-center"><span>red</span><span style="color: #00f">blue</span></p>',
    );
  });
});
