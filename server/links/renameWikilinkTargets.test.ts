import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { DocumentContent } from '../../common/api/documents.ts';
import { CONTENT_FIELD, contentOfYDoc, yDocFromContent } from '../collab/yjsContent.ts';
import { renameWikilinkTargets } from './renameWikilinkTargets.ts';

type Inline = Record<string, unknown>;
const text = (value: string, marks?: Inline[]): Inline =>
  marks ? { type: 'text', text: value, marks } : { type: 'text', text: value };
const link = (target: string, attrs: Inline = {}, marks?: Inline[]): Inline => ({
  type: 'wikilink',
  attrs: { target, ...attrs },
  ...(marks ? { marks } : {}),
});
const paragraph = (...inline: Inline[]) => ({ type: 'paragraph', content: inline });
const bold = [{ type: 'bold' }];

/** Links to "Draft" at the top, in a callout, in a list, bold, as an embed and with a fragment and alias. */
const content = {
  type: 'doc',
  content: [
    paragraph(text('see '), link('Draft'), text(' and '), link('Other')),
    {
      type: 'callout',
      attrs: { kind: 'note' },
      content: [
        {
          type: 'bulletList',
          content: [
            {
              type: 'listItem',
              content: [paragraph(link('draft', { fragment: '#Intro', alias: 'the intro' }))],
            },
          ],
        },
      ],
    },
    paragraph(link('notes/Draft.md', { embed: true }), text(' '), link('Draft', {}, bold)),
  ],
} as DocumentContent;

/** Every wikilink's target in a ProseMirror JSON tree, in document order. */
function targets(node: unknown): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const { type, attrs, content: children } = node as Inline;
  const own = type === 'wikilink' ? [String((attrs as Inline).target)] : [];
  return [...own, ...(Array.isArray(children) ? children.flatMap(targets) : [])];
}

/** Renames the links that name "Draft" (any case, any folder) to "Final", as the link store would. */
const draftToFinal = ({ target }: { target: string }) => {
  const match = /^(.*\/)?draft(\.md)?$/i.exec(target);
  return match ? `${match[1] ?? ''}Final${match[2] ?? ''}` : null;
};

describe('renaming wikilink targets in a live document', () => {
  it('sets the target of every link and embed that names the old title, at any depth', () => {
    const doc = yDocFromContent(content);
    let renamed = 0;
    doc.transact(() => {
      renamed = renameWikilinkTargets(doc.getXmlFragment(CONTENT_FIELD), draftToFinal);
    });
    expect(renamed).toBe(4);
    const after = contentOfYDoc(doc);
    expect(targets(after)).toEqual(['Final', 'Other', 'Final', 'notes/Final.md', 'Final']);
    // Everything but the targets is as it was: fragment, alias, embed, the bold carried on a link.
    const expected = JSON.parse(
      JSON.stringify(contentOfYDoc(yDocFromContent(content))).replace(
        /"target":"(notes\/)?[Dd]raft(\.md)?"/g,
        (_all, folder: string | undefined, md: string | undefined) =>
          `"target":"${folder ?? ''}Final${md ?? ''}"`,
      ),
    ) as unknown;
    expect(after).toEqual(expected);
  });

  it('writes only the target attribute: text typed meanwhile elsewhere merges with it', () => {
    const server = yDocFromContent(content);
    const writer = new Y.Doc();
    Y.applyUpdate(writer, Y.encodeStateAsUpdate(server));
    // The writer types into the paragraph that holds the link, and the server has not seen it.
    const first = writer.getXmlFragment(CONTENT_FIELD).get(0) as Y.XmlElement;
    (first.get(0) as Y.XmlText).insert(0, 'Please ');

    const changed: string[] = [];
    server.getXmlFragment(CONTENT_FIELD).observeDeep((events) => {
      for (const event of events) {
        for (const key of event.keys.keys()) changed.push(key);
        if (event.changes.delta.length > 0) changed.push('content');
      }
    });
    server.transact(() =>
      renameWikilinkTargets(server.getXmlFragment(CONTENT_FIELD), draftToFinal),
    );
    // No text, no other attribute (alias, embed, the carried bold of the last link): the targets.
    expect(changed).toEqual(['target', 'target', 'target', 'target']);

    Y.applyUpdate(writer, Y.encodeStateAsUpdate(server));
    Y.applyUpdate(server, Y.encodeStateAsUpdate(writer));
    for (const doc of [server, writer]) {
      const merged = contentOfYDoc(doc);
      expect(targets(merged)).toEqual(['Final', 'Other', 'Final', 'notes/Final.md', 'Final']);
      expect(JSON.stringify(merged)).toContain('"text":"Please see "');
    }
  });

  it('changes nothing when no link names the old title', () => {
    const doc = yDocFromContent(content);
    const before = Y.encodeStateVector(doc);
    const renamed = renameWikilinkTargets(doc.getXmlFragment(CONTENT_FIELD), () => null);
    expect(renamed).toBe(0);
    expect(Y.encodeStateVector(doc)).toEqual(before);
  });

  it('walks a fragment nested far deeper than the call stack would allow for recursion', () => {
    const doc = new Y.Doc();
    const fragment = doc.getXmlFragment(CONTENT_FIELD);
    doc.transact(() => {
      let parent: Y.XmlFragment | Y.XmlElement = fragment;
      for (let depth = 0; depth < 20_000; depth++) {
        const quote: Y.XmlElement = new Y.XmlElement('blockquote');
        parent.insert(0, [quote]);
        parent = quote;
      }
      const inner = new Y.XmlElement('paragraph');
      const wikilink = new Y.XmlElement('wikilink');
      wikilink.setAttribute('target', 'Draft');
      inner.insert(0, [wikilink]);
      parent.insert(0, [inner]);
    });
    expect(renameWikilinkTargets(fragment, draftToFinal)).toBe(1);
  });
});
