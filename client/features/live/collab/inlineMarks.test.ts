// @vitest-environment jsdom
import type { Editor, JSONContent } from '@tiptap/core';
import { yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import { afterEach, describe, expect, it } from 'vitest';
import type * as Y from 'yjs';
import {
  CARRIED_MARKS,
  restoreCarriedMarks,
} from '../../../../common/editor/collab/inlineMarks.ts';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { unchunked } from '../../editor/chunks/chunks.ts';
import { FRAGMENT, collabEditor, network, replicas } from './test/testEditors.ts';

const opened: Editor[] = [];
afterEach(() => {
  for (const editor of opened.splice(0)) editor.destroy();
});

function open(doc: Y.Doc, onRepair?: (problem: string) => void): Editor {
  const editor = collabEditor(doc, onRepair);
  opened.push(editor);
  return editor;
}

const schema = inkwellSchema();

/** The editor's document as the rest of Inkwell (and the server) knows it. */
function shown(editor: Editor): unknown {
  return unchunked(editor.state.doc).toJSON();
}

/** The shared document's content as the server reads it. */
function shared(doc: Y.Doc): unknown {
  const json = yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(FRAGMENT)) as JSONContent;
  return schema.nodeFromJSON(restoreCarriedMarks(json, schema, () => undefined)).toJSON();
}

const badgeLine: JSONContent = {
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [
        { type: 'inlineImage', attrs: { src: 'https://example.com/build.svg', alt: 'build' } },
        { type: 'text', text: ' see ' },
        { type: 'wikilink', attrs: { target: 'Other note' } },
        { type: 'text', text: ' end' },
      ],
    },
  ],
};

/** Position of the first node of type `name` in the editor. */
function find(editor: Editor, name: string): number {
  let found = -1;
  editor.state.doc.descendants((node, pos) => {
    if (found < 0 && node.type.name === name) found = pos;
    return found < 0;
  });
  if (found < 0) throw new Error(`no ${name}`);
  return found;
}

function nodeMarks(editor: Editor, name: string): string[] {
  const node = editor.state.doc.nodeAt(find(editor, name));
  return (
    node?.marks.map((mark) => `${mark.type.name}${mark.attrs.href ? ` ${mark.attrs.href}` : ''}`) ??
    []
  );
}

describe('marks on inline nodes between two editors', () => {
  it('sends a link added to an inline image and bold around a wikilink to the other writer', () => {
    const docs = replicas(badgeLine, 2);
    const [mine, theirs] = [open(docs[0]!), open(docs[1]!)];
    network(docs);
    const image = find(mine, 'inlineImage');
    const link = schema.marks.link!.create({ href: 'https://ci.example.com' });
    mine.view.dispatch(mine.state.tr.addMark(image, image + 1, link));
    const wikilink = find(mine, 'wikilink');
    mine.view.dispatch(
      mine.state.tr.addMark(wikilink - 2, wikilink + 3, schema.marks.bold!.create()),
    );
    expect(nodeMarks(theirs, 'inlineImage')).toEqual(['link https://ci.example.com']);
    expect(nodeMarks(theirs, 'wikilink')).toEqual(['bold']);
    expect(shown(theirs)).toEqual(shown(mine));
    expect(shared(docs[1]!)).toEqual(shown(mine));
    // Typing elsewhere in the block keeps them; taking the link off reaches the other writer too.
    mine.view.dispatch(mine.state.tr.insertText('!', find(mine, 'wikilink') + 4));
    expect(nodeMarks(theirs, 'inlineImage')).toEqual(['link https://ci.example.com']);
    const at = find(mine, 'inlineImage');
    mine.view.dispatch(mine.state.tr.removeMark(at, at + 1, schema.marks.link!));
    expect(nodeMarks(theirs, 'inlineImage')).toEqual([]);
    expect(nodeMarks(theirs, 'wikilink')).toEqual(['bold']);
    expect(shown(theirs)).toEqual(shown(mine));
  });

  it("does not write a badge's carried link again when the text on both sides of it changes", () => {
    const linked = structuredClone(badgeLine);
    const line = linked.content![0]!;
    line.content = [
      { type: 'text', text: 'before ' },
      {
        ...line.content![0]!,
        marks: [{ type: 'link', attrs: { href: 'https://ci.example.com' } }],
      },
      { type: 'text', text: ' after' },
    ];
    const docs = replicas(linked, 2);
    const [mine, theirs] = [open(docs[0]!), open(docs[1]!)];
    network(docs);
    const image = (docs[1]!.getXmlFragment(FRAGMENT).get(0) as Y.XmlElement).get(1) as Y.XmlElement;
    /** The Yjs item that holds the image's carried marks: a new one means they were written. */
    const holder = () => image._map.get(CARRIED_MARKS)?.id;
    const before = holder();
    expect(before).toBeDefined();
    const at = find(mine, 'inlineImage');
    // One transaction changing both texts: y-tiptap's diff then walks into the image itself.
    mine.view.dispatch(mine.state.tr.insertText('!', at + 1).insertText('?', at - 1));
    expect(theirs.state.doc.textContent).toBe('before? ! after');
    expect(nodeMarks(theirs, 'inlineImage')).toEqual(['link https://ci.example.com']);
    expect(holder()).toEqual(before);
  });

  it('opens a shared document whose badge carries its link', () => {
    const linked = structuredClone(badgeLine);
    linked.content![0]!.content![0]!.marks = [
      { type: 'link', attrs: { href: 'https://ci.example.com' } },
    ];
    const editor = open(replicas(linked, 1)[0]!);
    expect(nodeMarks(editor, 'inlineImage')).toEqual(['link https://ci.example.com']);
  });

  it('drops a remote carried mark it does not know, keeping the image and the link', () => {
    const docs = replicas(badgeLine, 2);
    const problems: string[] = [];
    const editor = open(docs[1]!, (problem) => problems.push(problem));
    network(docs);
    const paragraph = docs[0]!.getXmlFragment(FRAGMENT).get(0) as Y.XmlElement;
    const image = paragraph.get(0) as Y.XmlElement;
    image.setAttribute(
      CARRIED_MARKS,
      JSON.stringify([
        { type: 'blink' },
        { type: 'link', attrs: { href: 'https://ci.example.com' } },
      ]),
    );
    expect(nodeMarks(editor, 'inlineImage')).toEqual(['link https://ci.example.com']);
    expect(problems.join()).toMatch(/blink/);
    expect(problems.join()).not.toMatch(/stopped/);
  });
});
