import type { Node as PMNode } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { DocumentContent } from '../../common/api/documents.ts';
import { inkwellSchema } from '../../common/editor/extensions.ts';
import { contentOfYDoc, CONTENT_FIELD, yDocFromContent } from '../collab/yjsContent.ts';
import { authorshipOf, authorshipResponse, type AuthoredRun } from './authorship.ts';

const text = (value: string) => ({ type: 'text', text: value });
const paragraph = (...content: object[]) => ({ type: 'paragraph', content });
const IMAGE = 'https://example.com/a.png';

/** Brings two replicas to the same state, as the server's relay would. */
function sync(a: Y.Doc, b: Y.Doc): void {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
}

/** The top-level block `index` of a replica, and the child at `path` under it. */
function elementAt(doc: Y.Doc, index: number, ...path: number[]): Y.XmlElement | Y.XmlText {
  let node = doc.getXmlFragment(CONTENT_FIELD).get(index) as Y.XmlElement | Y.XmlText;
  for (const step of path) node = (node as Y.XmlElement).get(step) as Y.XmlElement | Y.XmlText;
  return node;
}

/** What a run holds in the ProseMirror document: its text, an inline leaf as `[type]`. */
function runText(doc: PMNode, run: AuthoredRun): string {
  const block = doc.child(run.block);
  return block.content.textBetween(run.from, run.to, '|', (leaf) => `[${leaf.type.name}]`);
}

/** Text and inline leaves of a block, as ProseMirror counts them. */
function inlineSize(block: PMNode): number {
  let size = 0;
  block.descendants((node) => {
    if (node.isText) size += node.text!.length;
    else if (node.isInline && node.isLeaf) size += 1;
  });
  return size;
}

/**
 * Checks every run against the ProseMirror document the state reads as: in document order, each
 * inside one textblock, together covering every character and inline leaf; answers each block's
 * runs as [writer, text].
 */
function checkedRuns(doc: Y.Doc, names: Map<string, string>): string[][][] {
  const userOfClient = new Map([...names.keys()].map((client) => [Number(client), client]));
  const { runs, users } = authorshipOf(doc, userOfClient);
  const node = inkwellSchema().nodeFromJSON(contentOfYDoc(doc));
  const byBlock: string[][][] = Array.from({ length: node.childCount }, () => []);
  let previous: AuthoredRun | undefined;
  for (const run of runs) {
    if (previous) {
      const after =
        run.block > previous.block || (run.block === previous.block && run.from >= previous.to);
      expect(after, JSON.stringify([previous, run])).toBe(true);
      // Merged: a run never goes straight on from one of the same writer.
      if (run.block === previous.block && run.from === previous.to) {
        expect(run.user).not.toBe(previous.user);
      }
    }
    const block = node.child(run.block);
    expect(run.to).toBeGreaterThan(run.from);
    const [$from, $to] = [block.resolve(run.from), block.resolve(run.to)];
    expect($from.parent, JSON.stringify(run)).toBe($to.parent);
    expect($from.parent.inlineContent).toBe(true);
    byBlock[run.block]!.push([names.get(run.user ?? '') ?? '?', runText(node, run)]);
    previous = run;
  }
  node.forEach((block, _offset, index) => {
    const covered = runs
      .filter((run) => run.block === index)
      .reduce((sum, run) => sum + run.to - run.from, 0);
    expect(covered, `block ${index}`).toBe(inlineSize(block));
  });
  expect(users).toEqual(new Set(runs.flatMap((run) => (run.user === null ? [] : [run.user]))));
  return byBlock;
}

describe('authorshipOf', () => {
  it('names the writer of every run of text and inline node, nested blocks included', () => {
    const start: DocumentContent = {
      type: 'doc',
      content: [
        paragraph(text('Hello world')),
        {
          type: 'bulletList',
          content: [
            {
              type: 'listItem',
              content: [
                paragraph(text('one')),
                {
                  type: 'bulletList',
                  content: [{ type: 'listItem', content: [paragraph(text('nested'))] }],
                },
              ],
            },
          ],
        },
        {
          type: 'table',
          content: [
            {
              type: 'tableRow',
              content: [
                { type: 'tableCell', content: [paragraph(text('left'))] },
                { type: 'tableCell', content: [paragraph(text('cell'))] },
              ],
            },
          ],
        },
        paragraph(text('x'), { type: 'inlineImage', attrs: { src: IMAGE, alt: 'pic' } }, text('y')),
      ],
    };
    const ann = yDocFromContent(start);
    const bob = new Y.Doc();
    sync(ann, bob);

    // Bob: bold words inside Ann's line, her "world" set in italics (a format, not a write), a
    // word in the nested item, the second cell, math and a line break after Ann's image.
    const hello = elementAt(bob, 0, 0) as Y.XmlText;
    hello.insert(6, 'brave ', { bold: {} });
    hello.format(12, 5, { italic: {} });
    (elementAt(bob, 1, 0, 1, 0, 0, 0) as Y.XmlText).insert(0, 'deeply ');
    (elementAt(bob, 2, 0, 1, 0, 0) as Y.XmlText).insert(4, ' too');
    const line = elementAt(bob, 3) as Y.XmlElement;
    const math = new Y.XmlElement('mathInline');
    math.setAttribute('tex', 'x^2');
    line.insert(2, [math, new Y.XmlElement('hardBreak')]);
    // Ann meanwhile: deletes "ll", and ends the document with a line of her own.
    (elementAt(ann, 0, 0) as Y.XmlText).delete(2, 2);
    const end = new Y.XmlElement('paragraph');
    end.insert(0, [new Y.XmlText('The end.')]);
    ann.getXmlFragment(CONTENT_FIELD).insert(4, [end]);
    sync(ann, bob);

    const names = new Map([
      [String(ann.clientID), 'Ann'],
      [String(bob.clientID), 'Bob'],
    ]);
    const expected = [
      [
        ['Ann', 'Heo '],
        ['Bob', 'brave '],
        ['Ann', 'world'],
      ],
      [
        ['Ann', 'one'],
        ['Bob', 'deeply '],
        ['Ann', 'nested'],
      ],
      [
        ['Ann', 'left'],
        ['Ann', 'cell'],
        ['Bob', ' too'],
      ],
      [
        ['Ann', 'x[inlineImage]'],
        ['Bob', '[mathInline][hardBreak]'],
        ['Ann', 'y'],
      ],
      [['Ann', 'The end.']],
    ];
    expect(checkedRuns(ann, names)).toEqual(expected);
    // The same on either replica, and after the state is written and read back (compaction).
    expect(checkedRuns(bob, names)).toEqual(expected);
    const stored = new Y.Doc();
    Y.applyUpdate(stored, Y.encodeStateAsUpdate(ann));
    expect(checkedRuns(stored, names)).toEqual(expected);
  });

  it('leaves a client nobody recorded unnamed', () => {
    const doc = yDocFromContent({ type: 'doc', content: [paragraph(text('ab'))] });
    const { runs, users } = authorshipOf(doc, new Map());
    expect(runs).toEqual([{ block: 0, from: 0, to: 2, user: null }]);
    expect(users.size).toBe(0);
  });
});

describe('authorshipResponse', () => {
  it('places the runs on the sanitised content the version route answers', () => {
    const ann = yDocFromContent({
      type: 'doc',
      content: [
        { type: 'image', attrs: { src: 'javascript:alert(1)' } },
        paragraph(
          text('ab'),
          { type: 'inlineImage', attrs: { src: 'javascript:alert(1)', alt: '' } },
          text('cd'),
        ),
        paragraph(text('ok')),
      ],
    });
    const bob = new Y.Doc();
    sync(ann, bob);
    (elementAt(bob, 1, 2) as Y.XmlText).insert(2, '!');
    (elementAt(bob, 2, 0) as Y.XmlText).insert(0, 'B:');
    sync(ann, bob);

    const answer = authorshipResponse(ann, {
      userOfClient: new Map([
        [ann.clientID, 'ann-id'],
        [bob.clientID, 'bob-id'],
      ]),
      names: new Map([
        ['ann-id', 'Ann'],
        ['bob-id', 'Bob'],
      ]),
    });
    expect(JSON.stringify(answer.content)).not.toContain('javascript:');
    expect(answer.authors).toEqual([
      { id: 'ann-id', name: 'Ann' },
      { id: 'bob-id', name: 'Bob' },
    ]);
    const node = inkwellSchema().nodeFromJSON(answer.content);
    const named = answer.runs.map(([block, from, to, author]) => [
      answer.authors[author]?.name,
      node.child(block).content.textBetween(from, to),
    ]);
    expect(named).toEqual([
      ['Ann', 'abcd'],
      ['Bob', '!'],
      ['Bob', 'B:'],
      ['Ann', 'ok'],
    ]);
  });
});
