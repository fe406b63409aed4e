import { Schema } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../extensions.ts';
import {
  CARRIED_MARKS,
  carriedMarks,
  restoreCarriedMarks,
  withCarriedMarks,
} from './inlineMarks.ts';

const schema = inkwellSchema();
const link = { type: 'link', attrs: { href: 'https://ci.example.com' } };

function list(...items: object[][]) {
  return schema.nodeFromJSON({
    type: 'doc',
    content: [
      {
        type: 'bulletList',
        content: items.map((content) => ({
          type: 'listItem',
          content: [{ type: 'paragraph', content }],
        })),
      },
    ],
  });
}

describe('carrying marks of inline nodes other than text', () => {
  it('hands over the same document when no inline node has marks, bold text included', () => {
    const doc = list(
      [{ type: 'text', text: 'bold', marks: [{ type: 'bold' }] }],
      [{ type: 'inlineImage', attrs: { src: '/a.png' } }],
    );
    expect(withCarriedMarks(doc)).toBe(doc);
  });

  it('rebuilds only the path to a marked inline node, keeping every other node itself', () => {
    const doc = list(
      [{ type: 'text', text: 'first' }],
      [{ type: 'inlineImage', attrs: { src: '/badge.svg' }, marks: [link] }],
      [{ type: 'text', text: 'third' }],
    );
    const carried = withCarriedMarks(doc);
    const items = (node: typeof doc) => node.child(0);
    expect(items(carried).child(0)).toBe(items(doc).child(0));
    expect(items(carried).child(2)).toBe(items(doc).child(2));
    const image = items(carried).child(1).child(0).child(0);
    expect(image.marks).toEqual([]);
    expect(JSON.parse(image.attrs[CARRIED_MARKS] as string)).toEqual([
      { type: 'link', attrs: expect.objectContaining(link.attrs) },
    ]);
    expect(image.attrs.src).toBe('/badge.svg');
    // The editor's own nodes never hold the attribute.
    expect(items(doc).child(1).child(0).child(0).attrs).not.toHaveProperty(CARRIED_MARKS);
  });

  it('restores carried marks as the node marks of the JSON, without the attribute', () => {
    const json = restoreCarriedMarks(
      {
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            content: [
              {
                type: 'wikilink',
                attrs: { target: 'Note', [CARRIED_MARKS]: JSON.stringify([{ type: 'bold' }]) },
              },
            ],
          },
        ],
      },
      schema,
      () => undefined,
    );
    expect(json.content?.[0]?.content?.[0]).toEqual({
      type: 'wikilink',
      attrs: { target: 'Note' },
      marks: [schema.marks.bold!.create().toJSON()],
    });
  });

  it('drops, and reports, what the schema or the parent refuses, never throwing', () => {
    const strict = new Schema({
      nodes: {
        doc: { content: 'block+' },
        caption: { content: 'inline*', group: 'block', marks: '' },
        text: { group: 'inline' },
        icon: { inline: true, group: 'inline', atom: true },
      },
      marks: { em: {}, link: { attrs: { href: { validate: 'string' } } } },
    });
    const problems: string[] = [];
    const report = (problem: string) => problems.push(problem);
    const caption = strict.nodes.caption!;
    expect(carriedMarks(JSON.stringify([{ type: 'em' }]), strict, caption, report)).toEqual([]);
    expect(problems.join()).toMatch(/em where caption/);
    const marks = carriedMarks(
      JSON.stringify([
        { type: 'blink' },
        { type: 'link', attrs: { href: 7 } },
        7,
        null,
        { type: 'em' },
      ]),
      strict,
      null,
      report,
    );
    expect(marks.map((mark) => mark.type.name)).toEqual(['em']);
    expect(problems.join()).toMatch(/blink/);
    expect(problems.join()).toMatch(/link with bad attributes/);
    for (const bad of [JSON.stringify({ type: 'em' }), '[{', [{ type: 'em' }], 7]) {
      problems.length = 0;
      expect(carriedMarks(bad, strict, null, report)).toEqual([]);
      expect(problems.join()).toMatch(/not a list/);
    }
  });
});
