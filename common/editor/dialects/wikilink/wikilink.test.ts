import { describe, expect, it } from 'vitest';
import type { Node as PMNode } from '@tiptap/pm/model';
import { inkwellSchema } from '../../extensions.ts';
import { parseMarkdown } from '../../markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../markdown/serializeMarkdown.ts';
import { roundtrip } from '../../markdown/test/fidelity.ts';
import { seededRandom } from '../../../test/seededRandom.ts';
import { sanitizeDocJson } from '../../sanitizeDocJson.ts';
import { MAX_WIKILINK_CHARS } from './wikilinkSyntax.ts';

function wikilinks(doc: PMNode): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = [];
  doc.descendants((node) => {
    if (node.type.name === 'wikilink') found.push({ ...node.attrs });
  });
  return found;
}

const paragraph = (...content: PMNode[]) => {
  const schema = inkwellSchema();
  return schema.node('doc', null, [schema.node('paragraph', null, content)]);
};

describe('wikilinks [[…]] and embeds ![[…]]', () => {
  it('reads each form into its parts', () => {
    const doc = parseMarkdown(
      'See [[Title]], [[Title#Heading|alias]], [[Title^block]], [[Title|alias]], ' +
        '[[Note#^id]], ![[image.png]] and ![[Note]].\n',
    );
    expect(wikilinks(doc)).toEqual([
      { target: 'Title', fragment: '', alias: null, embed: false, src: null },
      { target: 'Title', fragment: '#Heading', alias: 'alias', embed: false, src: null },
      { target: 'Title', fragment: '^block', alias: null, embed: false, src: null },
      { target: 'Title', fragment: '', alias: 'alias', embed: false, src: null },
      { target: 'Note', fragment: '#^id', alias: null, embed: false, src: null },
      { target: 'image.png', fragment: '', alias: null, embed: true, src: null },
      { target: 'Note', fragment: '', alias: null, embed: true, src: null },
    ]);
  });

  it('writes every form back byte for byte', () => {
    for (const text of [
      '[[Title]]\n',
      'A [[Title#Heading|alias]] here.\n',
      '[[Title^block]]\n',
      '[[Title|alias]]\n',
      '[[folder/Note.md#A#B|x|y]]\n',
      '[[#Heading in this note]]\n',
      '![[image.png|200]]\n',
      '![[paper.pdf#page=3]]\n',
      '![[Note]]\n',
      '**[[Bold link]]** and *[[it]]*\n',
      '[[a]](b) and more\n',
      '# Heading with [[Link]]\n',
      '- [[One]]\n- [[Two|2]]\n',
    ]) {
      expect(roundtrip(text), text).toBe(text);
    }
  });

  it('keeps a wikilink in a table, its | written \\| as Obsidian has it', () => {
    const text = '| note | link |\n| --- | --- |\n| a | [[Title\\|alias]] and ![[x.png\\|100]] |\n';
    const doc = parseMarkdown(text);
    expect(wikilinks(doc).map((link) => link.alias)).toEqual(['alias', '100']);
    expect(roundtrip(text)).toBe(text);
  });

  it('keeps a wikilink in a callout', () => {
    const text = '> [!note] Related\n> See [[Other]], ![[Embedded#Part]] and [[x|y]].\n';
    const doc = parseMarkdown(text);
    expect(doc.firstChild!.type.name).toBe('callout');
    expect(wikilinks(doc)).toHaveLength(3);
    expect(roundtrip(text)).toBe(text);
  });

  it('leaves a bracketed reference link of CommonMark as it reads it', () => {
    const doc = parseMarkdown('[[Ref]]\n\n[Ref]: https://example.com\n');
    expect(wikilinks(doc)).toEqual([]);
    expect(doc.firstChild!.child(1).marks[0]?.attrs.href).toBe('https://example.com');
  });

  it('leaves escaped and empty brackets as text', () => {
    for (const text of ['\\[\\[Not a link\\]\\]\n', '\\[\\[\\]\\]\n', '!\\[\\[x\\]\\]\n']) {
      expect(wikilinks(parseMarkdown(text)), text).toEqual([]);
      expect(roundtrip(text)).toBe(text);
    }
    expect(wikilinks(parseMarkdown('[[]] [[ ]] [[|a]] [[#]]\n'))).toEqual([]);
  });

  it('reads no wikilink across a line, around a bracket or nested brackets', () => {
    const doc = parseMarkdown('[[a\nb]] [[a [b] c]] [[[[deep]]]] [[x]\n');
    expect(wikilinks(doc).map((link) => link.target)).toEqual(['deep']);
    expect(parseMarkdown('[[[[[[[[[[[[[[[[\n').textContent).toBe('[[[[[[[[[[[[[[[[');
  });

  it('never makes a wikilink of a target the link rule refuses', () => {
    for (const text of [
      '[[javascript:alert(1)]]\n',
      '![[data:text/html,x]]\n',
      '[[java\tscript:x]]\n',
    ]) {
      const doc = parseMarkdown(text);
      expect(wikilinks(doc), text).toEqual([]);
      expect(doc.textContent).toMatch(/script:|data:/);
    }
  });

  it('leaves a wikilink longer than the limit as text, in linear time', () => {
    const long = `[[${'a'.repeat(MAX_WIKILINK_CHARS + 1)}]]\n`;
    expect(wikilinks(parseMarkdown(long))).toEqual([]);
    expect(wikilinks(parseMarkdown(`[[${'a'.repeat(MAX_WIKILINK_CHARS)}]]\n`))).toHaveLength(1);
    const started = performance.now();
    parseMarkdown(`${'[['.repeat(50_000)}x${']]'.repeat(50_000)}\n`);
    parseMarkdown(`${'[[a'.repeat(50_000)}\n`);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('writes text that looks like a wikilink so that it stays text', () => {
    const schema = inkwellSchema();
    for (const text of ['[[Title]]', '![[x]]', '[[a|b]] [[c]]']) {
      const markdown = serializeMarkdown(paragraph(schema.text(text)));
      const doc = parseMarkdown(markdown);
      expect(wikilinks(doc), markdown).toEqual([]);
      expect(doc.textContent).toBe(text);
    }
  });

  it('does not turn a wikilink after a "!" into an embed', () => {
    const schema = inkwellSchema();
    const link = schema.nodes.wikilink!.create({ target: 'Note' });
    const markdown = serializeMarkdown(paragraph(schema.text('Wow!'), link));
    const doc = parseMarkdown(markdown);
    expect(wikilinks(doc)).toEqual([
      { target: 'Note', fragment: '', alias: null, embed: false, src: null },
    ]);
    expect(doc.textContent).toBe('Wow![[Note]]');
  });

  it('gives its source as the text of the node, for search', () => {
    const doc = parseMarkdown('Go to [[Plans#Q3|the plan]]\n');
    expect(doc.textBetween(0, doc.content.size, '\n')).toBe('Go to [[Plans#Q3|the plan]]');
  });

  it('turns a wikilink in document JSON that would not read back, or breaks the link rule, into its text', () => {
    const link = (attrs: Record<string, unknown>) => ({ type: 'wikilink', attrs });
    const json = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            link({ target: 'Fine', fragment: '#H', alias: 'a', embed: false }),
            link({ target: 'javascript:alert(1)', fragment: '', alias: null, embed: false }),
            link({ target: 'a]]b', fragment: '', alias: null, embed: false }),
            link({ target: 'x', fragment: '', alias: 'line\nbreak', embed: true }),
          ],
        },
      ],
    };
    const cleaned = sanitizeDocJson(json)!;
    const content = (cleaned.content![0]!.content ?? []).map((node) => node.type ?? '');
    expect(content).toEqual(['wikilink', 'text', 'text', 'text']);
    const doc = inkwellSchema().nodeFromJSON(cleaned);
    expect(doc.textContent).toBe('[[Fine#H|a]][[javascript:alert(1)]][[a]]b]]![[x|line\nbreak]]');
  });

  it('keeps the uploaded file an image embed shows in the JSON, never in its Markdown', () => {
    const schema = inkwellSchema();
    const src = '/files/0b0e8f0e-52f4-4f2a-9d35-6a3f4c1b2d3e';
    const doc = paragraph(
      schema.text('Look: '),
      schema.node('wikilink', { target: 'sub/diagram.png', alias: '300', embed: true, src }),
    );
    expect(serializeMarkdown(doc)).toBe('Look: ![[sub/diagram.png|300]]\n');
    const stored = sanitizeDocJson(doc.toJSON())!;
    expect(wikilinks(schema.nodeFromJSON(stored))[0]).toMatchObject({ embed: true, src });
  });

  it('drops an embed address that is not an uploaded file, keeping the embed', () => {
    const json = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: ['javascript:alert(1)', 'https://example.com/x.png', '/files/../etc/passwd'].map(
            (src) => ({
              type: 'wikilink',
              attrs: { target: 'x.png', fragment: '', alias: null, embed: true, src },
            }),
          ),
        },
      ],
    };
    const doc = inkwellSchema().nodeFromJSON(sanitizeDocJson(json)!);
    expect(wikilinks(doc).map((attrs) => attrs.src)).toEqual([null, null, null]);
    expect(doc.textContent).toBe('![[x.png]]![[x.png]]![[x.png]]');
  });

  it('text full of brackets, and wikilinks mixed with other constructs, come back as they were', () => {
    const schema = inkwellSchema();
    const random = seededRandom(31);
    const pick = (from: string[]) => from[Math.floor(random() * from.length)]!;
    const pieces = ['[[', ']]', '![[', '!', '|', '#', '^', 'a', ' ', '\\', '[', ']', 'x.png'];
    for (let run = 0; run < 1000; run++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 10) }, () => pick(pieces))
        .join('')
        .trim();
      if (!text) continue;
      const markdown = serializeMarkdown(paragraph(schema.text(text)));
      expect(parseMarkdown(markdown).textContent, JSON.stringify(markdown)).toBe(text);
    }
    const constructs = [
      '[[Note]]',
      '![[x.png|9]]',
      '[[a#b|c]]',
      '**[[B]]**',
      '#tag',
      '$x$',
      'word',
    ];
    for (let run = 0; run < 500; run++) {
      const line = Array.from({ length: 2 + Math.floor(random() * 6) }, () => pick(constructs));
      const markdown = `${line.join(random() < 0.5 ? ' ' : ', ')}\n`;
      expect(roundtrip(markdown), JSON.stringify(markdown)).toBe(markdown);
    }
  });
});
