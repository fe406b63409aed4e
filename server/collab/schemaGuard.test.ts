import type { JSONContent } from '@tiptap/core';
import { describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { inkwellSchema } from '../../common/editor/extensions.ts';
import { CARRIED_MARKS } from '../../common/editor/collab/inlineMarks.ts';
import { schemaProblem } from '../documents/validateContent.ts';
import { SchemaGuard } from './schemaGuard.ts';
import { contentOfYDoc, CONTENT_FIELD, yDocFromContent } from './yjsContent.ts';

const paragraph = (text: string) => ({
  type: 'paragraph',
  content: [{ type: 'text', text }],
});

/** Another writer's copy of `doc`. */
function copyOf(doc: Y.Doc): Y.Doc {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
  return copy;
}

/** The update `change` makes on `doc`, as its provider would send it. */
function updateFrom(doc: Y.Doc, change: (fragment: Y.XmlFragment) => void): Uint8Array {
  const before = Y.encodeStateVector(doc);
  doc.transact(() => change(doc.getXmlFragment(CONTENT_FIELD)));
  return Y.encodeStateAsUpdate(doc, before);
}

/** A live document, a guard over it, and a client copy whose changes become updates to check. */
function setup(blocks: JSONContent[] = [paragraph('hello')]) {
  const live = yDocFromContent({ type: 'doc', content: blocks });
  const guard = new SchemaGuard(inkwellSchema(), () => Y.encodeStateAsUpdate(live));
  const client = copyOf(live);
  const updateOf = (change: (fragment: Y.XmlFragment) => void) => updateFrom(client, change);
  return { live, guard, client, updateOf };
}

/** A change typing `text` at the start of the second block's text. */
const typeIntoSecondBlock = (text: string) => (fragment: Y.XmlFragment) =>
  ((fragment.get(1) as Y.XmlElement).get(0) as Y.XmlText).insert(0, text);

function element(name: string, text?: string, attrs: Record<string, string> = {}): Y.XmlElement {
  const node = new Y.XmlElement(name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.insert(0, [new Y.XmlText(text)]);
  return node;
}

/** A paragraph holding an inline image whose Y element carries `marks` (see inlineMarks.ts). */
function linkedBadge(marks: unknown): Y.XmlElement {
  const image = element('inlineImage', undefined, {
    src: 'https://example.com/badge.svg',
    [CARRIED_MARKS]: typeof marks === 'string' ? marks : JSON.stringify(marks),
  });
  const paragraph = new Y.XmlElement('paragraph');
  paragraph.insert(0, [image]);
  return paragraph;
}

/**
 * Inserts at `index` of `fragment` `levels` blockquotes, one inside the other, around a
 * paragraph of `text`: each into the one before once it is in the document, as Yjs integrates a
 * new element's children recursively and a client built deeper than the call stack allows.
 */
function insertQuotes(fragment: Y.XmlFragment, index: number, levels: number, text: string) {
  let parent: Y.XmlFragment | Y.XmlElement = fragment;
  for (let level = 0; level < levels; level++) {
    const quote: Y.XmlElement = new Y.XmlElement('blockquote');
    parent.insert(parent === fragment ? index : 0, [quote]);
    parent = quote;
  }
  parent.insert(0, [element('paragraph', text)]);
}

describe('the schema guard of live updates', () => {
  it('refuses blocks nested past the limit, however deep, and takes them at the limit', () => {
    const { guard, updateOf } = setup();
    expect(guard.check(updateOf((f) => insertQuotes(f, 1, 99, 'at the limit')))).toEqual({
      problem: null,
      changed: true,
      repair: null,
    });
    for (const levels of [100, 20_000]) {
      // Each from a client of its own: a refused update is no cause the next may build on.
      const other = setup();
      const { problem } = other.guard.check(
        other.updateOf((f) => insertQuotes(f, 0, levels, 'deep')),
      );
      expect(problem).toBe(
        `The update nests blocks ${levels + 1} levels deep; a document may nest 100.`,
      );
    }
  });

  it('accepts an inline image carrying a link, as the editor writes a README badge', () => {
    const { guard, updateOf } = setup();
    const update = updateOf((f) =>
      f.insert(1, [linkedBadge([{ type: 'link', attrs: { href: 'https://ci.example.com' } }])]),
    );
    expect(guard.check(update)).toEqual({ problem: null, changed: true, repair: null });
  });
  it('accepts typing and a new paragraph, and says when an update brings nothing new', () => {
    const { guard, updateOf, client } = setup();
    const typing = updateOf((fragment) =>
      ((fragment.get(0) as Y.XmlElement).get(0) as Y.XmlText).insert(5, ' world'),
    );
    expect(guard.check(typing)).toEqual({ problem: null, changed: true, repair: null });
    const newLine = updateOf((fragment) => fragment.insert(1, [element('paragraph', 'more')]));
    expect(guard.check(newLine)).toEqual({ problem: null, changed: true, repair: null });
    expect(guard.check(Y.encodeStateAsUpdate(client))).toEqual({
      problem: null,
      changed: false,
      repair: null,
    });
  });

  it.each([
    ['an unknown node', (f: Y.XmlFragment) => f.insert(1, [element('nonsense', 'x')])],
    ['text at the top level', (f: Y.XmlFragment) => f.insert(1, [new Y.XmlText('loose')])],
    [
      'an unknown mark',
      (f: Y.XmlFragment) =>
        ((f.get(0) as Y.XmlElement).get(0) as Y.XmlText).format(0, 2, { blink: {} }),
    ],
    [
      'a javascript: link',
      (f: Y.XmlFragment) =>
        ((f.get(0) as Y.XmlElement).get(0) as Y.XmlText).format(0, 2, {
          link: { href: 'javascript:alert(1)' },
        }),
    ],
    [
      'a javascript: image',
      (f: Y.XmlFragment) =>
        f.insert(1, [element('image', undefined, { src: 'javascript:alert(1)' })]),
    ],
    [
      'a javascript: link carried on an inline image',
      (f: Y.XmlFragment) =>
        f.insert(1, [linkedBadge([{ type: 'link', attrs: { href: 'javascript:alert(1)' } }])]),
    ],
    [
      'an unknown mark carried on an inline image',
      (f: Y.XmlFragment) => f.insert(1, [linkedBadge([{ type: 'blink' }])]),
    ],
    ['carried marks that are not a list', (f: Y.XmlFragment) => f.insert(1, [linkedBadge('bold')])],
    [
      'carried marks that are no string',
      (f: Y.XmlFragment) => {
        const image = new Y.XmlElement<{ [key: string]: unknown[] }>('inlineImage');
        image.setAttribute(CARRIED_MARKS, [{ type: 'bold' }]);
        const paragraph = new Y.XmlElement('paragraph');
        paragraph.insert(0, [image as unknown as Y.XmlElement]);
        f.insert(1, [paragraph]);
      },
    ],
    [
      'marks carried on a block',
      (f: Y.XmlFragment) => {
        const block = element('paragraph', 'x', {
          [CARRIED_MARKS]: JSON.stringify([{ type: 'bold' }]),
        });
        f.insert(1, [block]);
      },
    ],
    [
      'a named entry on the content itself',
      (f: Y.XmlFragment) => Y.XmlElement.prototype.setAttribute.call(f, 'hidden', 'x'),
    ],
  ])('refuses %s and keeps checking against the live document', (_name, change) => {
    const { guard, updateOf, live } = setup();
    expect(guard.check(updateOf(change)).problem).toEqual(expect.any(String));
    // The shadow started over from the live document: another client's valid change passes.
    const fine = updateFrom(copyOf(live), (fragment) =>
      fragment.insert(1, [element('paragraph', 'fine')]),
    );
    expect(guard.check(fine).problem).toBeNull();
  });

  it('refuses writes outside the content, bytes that are no update, and missing causes', () => {
    const { guard, client } = setup();
    const other = copyOf(client);
    const elsewhere = updateFrom(other, () => other.getMap('elsewhere').set('x', 1));
    expect(guard.check(elsewhere).problem).toMatch(/outside/);
    expect(guard.check(new Uint8Array([1, 2, 3, 250, 250, 250])).problem).toEqual(
      expect.any(String),
    );
    // Two changes of one client; the second alone depends on the first.
    const fragment = client.getXmlFragment(CONTENT_FIELD);
    client.transact(() => fragment.insert(1, [element('paragraph', 'one')]));
    const middle = Y.encodeStateVector(client);
    client.transact(() => fragment.insert(2, [element('paragraph', 'two')]));
    expect(guard.check(Y.encodeStateAsUpdate(client, middle)).problem).toMatch(/depends/);
  });

  it('checks only the blocks an update touches in a 1 MB document, not the whole document', () => {
    const blocks = Array.from({ length: 5_000 }, (_, i) =>
      paragraph(`Paragraph ${i} ${'lorem ipsum dolor sit amet '.repeat(7)}`),
    );
    const { guard, updateOf, live } = setup(blocks);
    expect(Y.encodeStateAsUpdate(live).byteLength).toBeGreaterThan(1_000_000);
    // The cost of a check follows the blocks it builds and checks (its speed is in the
    // collabEcho benchmark); a keystroke and a new paragraph each build one.
    const checked = vi.spyOn(guard as unknown as { blockProblem: () => unknown }, 'blockProblem');
    for (let i = 0; i < 20; i += 1) {
      const update = updateOf((fragment) =>
        ((fragment.get(2_500) as Y.XmlElement).get(0) as Y.XmlText).insert(i, 'x'),
      );
      expect(guard.check(update).problem).toBeNull();
    }
    expect(checked).toHaveBeenCalledTimes(20);
    checked.mockClear();
    for (let i = 0; i < 5; i += 1) {
      const update = updateOf((fragment) => fragment.insert(2_500, [element('paragraph', 'new')]));
      expect(guard.check(update).problem).toBeNull();
    }
    expect(checked).toHaveBeenCalledTimes(5);
  });
});

describe('the shadow copy', () => {
  it('is made at the first check, from the live document with what it took meanwhile', () => {
    const live = yDocFromContent({ type: 'doc', content: [paragraph('hello')] });
    let reads = 0;
    const guard = new SchemaGuard(inkwellSchema(), () => {
      reads++;
      return Y.encodeStateAsUpdate(live);
    });
    // A large document's copy costs as much as loading it: nothing is made until needed.
    expect(reads).toBe(0);
    // Another instance's change, taken by the live document and followed before any check.
    const other = copyOf(live);
    const followed = updateFrom(other, (fragment) =>
      fragment.insert(1, [element('paragraph', 'from Redis')]),
    );
    Y.applyUpdate(live, followed);
    guard.follow(followed);
    expect(reads).toBe(0);
    // An edit of the block that change made: checked against a copy that holds it.
    expect(guard.check(updateFrom(other, typeIntoSecondBlock('Typed ')))).toEqual({
      problem: null,
      changed: true,
      repair: null,
    });
    expect(reads).toBe(1);
    guard.destroy();
  });

  it('is made again from the live document after a refusal, when next needed', () => {
    const { live, guard, updateOf } = setup();
    const refused = updateOf((fragment) => fragment.insert(1, [element('noSuchNode', 'x')]));
    expect(guard.check(refused).problem).not.toBeNull();
    // Another writer, on the live document (which never took the refused block).
    const writer = copyOf(live);
    const next = updateFrom(writer, (fragment) =>
      fragment.insert(1, [element('paragraph', 'next')]),
    );
    expect(guard.check(next).problem).toBeNull();
    // The copy holds that writer's block at index 1, not the refused one: a change to it checks.
    expect(guard.check(updateFrom(writer, typeIntoSecondBlock('Still ')))).toEqual({
      problem: null,
      changed: true,
      repair: null,
    });
    guard.destroy();
  });
});

/** A bullet list of items, each item's paragraphs given as texts. */
const list = (...items: string[][]) => ({
  type: 'bulletList',
  content: items.map((texts) => ({ type: 'listItem', content: texts.map(paragraph) })),
});

/** The document `updates` make of `live`, as ProseMirror JSON, and why the schema refuses it. */
function resultOf(live: Y.Doc, ...updates: Uint8Array[]) {
  const doc = copyOf(live);
  for (const update of updates) Y.applyUpdate(doc, update);
  const content = contentOfYDoc(doc);
  return { content, problem: schemaProblem(inkwellSchema(), content) };
}

describe('concurrent edits the schema refuses together', () => {
  it('repairs, as one more update, the list item two writers each emptied of one paragraph', () => {
    const { live, guard } = setup([list(['first', 'second'], ['third'])]);
    const ada = copyOf(live);
    const bob = copyOf(live);
    const item = (f: Y.XmlFragment) => (f.get(0) as Y.XmlElement).get(0) as Y.XmlElement;
    const adas = updateFrom(ada, (f) => item(f).delete(0, 1));
    const bobs = updateFrom(bob, (f) => item(f).delete(1, 1));
    // Each is valid alone: a list item keeps one paragraph.
    expect(resultOf(live, adas).problem).toBeNull();
    expect(resultOf(live, bobs).problem).toBeNull();
    expect(resultOf(live, adas, bobs).problem).toEqual(expect.any(String));
    const first = guard.check(adas);
    expect(first).toEqual({ problem: null, changed: true, repair: null });
    const second = guard.check(bobs);
    expect(second.problem).toBeNull();
    expect(second.repair).toBeInstanceOf(Uint8Array);
    const repaired = resultOf(live, adas, bobs, second.repair!);
    expect(repaired.problem).toBeNull();
    // The emptied item is gone; the other keeps its text.
    expect(repaired.content).toEqual({ type: 'doc', content: [list(['third'])] });
  });

  it('repairs what another instance’s update (through Redis) breaks with one checked here', () => {
    const { live, guard } = setup([list(['first', 'second'])]);
    const item = (f: Y.XmlFragment) => (f.get(0) as Y.XmlElement).get(0) as Y.XmlElement;
    const here = updateFrom(copyOf(live), (f) => item(f).delete(0, 1));
    const there = updateFrom(copyOf(live), (f) => item(f).delete(1, 1));
    expect(guard.check(here).repair).toBeNull();
    Y.applyUpdate(live, here);
    // The live document took the other instance's update unchecked; the guard follows it.
    Y.applyUpdate(live, there);
    const repair = guard.follow(there);
    expect(repair).toBeInstanceOf(Uint8Array);
    Y.applyUpdate(live, repair!);
    const content = contentOfYDoc(live);
    expect(schemaProblem(inkwellSchema(), content)).toBeNull();
    // The only item emptied, then the list: what is left is the editor's empty document.
    expect(content).toEqual({ type: 'doc', content: [{ type: 'paragraph' }] });
    // What the live document took since is what the shadow holds: nothing more to repair.
    expect(guard.follow(repair!)).toBeNull();
  });

  it.each([
    [
      'a block where inline content belongs',
      (f: Y.XmlFragment) => (f.get(0) as Y.XmlElement).insert(0, [element('paragraph', 'x')]),
      [paragraph('xhello')],
    ],
    ['the last block removed', (f: Y.XmlFragment) => f.delete(0, 1), [{ type: 'paragraph' }]],
    [
      'front matter below a block',
      (f: Y.XmlFragment) => f.insert(1, [element('frontMatter', undefined, { yaml: 'a: 1\n' })]),
      [{ type: 'frontMatter', attrs: { yaml: 'a: 1\n' } }, paragraph('hello')],
    ],
  ])('repairs %s, keeping the text', (_name, change, blocks) => {
    const { guard, updateOf, live } = setup();
    const update = updateOf(change);
    const verdict = guard.check(update);
    expect(verdict.problem).toBeNull();
    const repaired = resultOf(live, update, verdict.repair!);
    expect(repaired.problem).toBeNull();
    expect(repaired.content).toMatchObject({ type: 'doc', content: blocks });
  });
});

describe('text lost to a concurrent deletion (lostText.ts)', () => {
  /** Ada deletes the second block (a restore would); Bob, not having seen it, types into it. */
  function deletedWhileTyped(blocks = [paragraph('one'), paragraph('two'), paragraph('three')]) {
    const { live, guard } = setup(blocks);
    const adas = updateFrom(copyOf(live), (f) => f.delete(1, 1));
    const bobs = updateFrom(copyOf(live), typeIntoSecondBlock('Bob typed this. '));
    return { live, guard, adas, bobs };
  }

  it('gives back typing that reaches a block already deleted, where the block was', () => {
    const { live, guard, adas, bobs } = deletedWhileTyped();
    expect(guard.check(adas)).toEqual({ problem: null, changed: true, repair: null });
    const verdict = guard.check(bobs);
    expect(verdict.problem).toBeNull();
    // No type Yjs reports changed, but new items the document must take.
    expect(verdict.changed).toBe(true);
    expect(verdict.repair).toBeInstanceOf(Uint8Array);
    expect(resultOf(live, adas, bobs, verdict.repair!).content).toEqual({
      type: 'doc',
      content: [paragraph('one'), paragraph('Bob typed this. '), paragraph('three')],
    });
  });

  it('gives back typing that a deletion made without seeing it takes with its block', () => {
    const { live, guard, adas, bobs } = deletedWhileTyped();
    expect(guard.check(bobs).repair).toBeNull();
    const verdict = guard.check(adas);
    expect(verdict.repair).toBeInstanceOf(Uint8Array);
    // Only what Ada had not seen: the block's own words were hers to delete.
    expect(resultOf(live, bobs, adas, verdict.repair!).content).toEqual({
      type: 'doc',
      content: [paragraph('one'), paragraph('Bob typed this. '), paragraph('three')],
    });
  });

  it('gives back nothing its writer saw deleted, nor what another instance checked', () => {
    const { live, guard, bobs } = deletedWhileTyped();
    // Ada deletes the block after Bob's typing reached her: she chose to delete it all.
    const ada = copyOf(live);
    Y.applyUpdate(ada, bobs);
    const adas = updateFrom(ada, (f) => f.delete(1, 1));
    expect(guard.check(bobs).repair).toBeNull();
    expect(guard.check(adas)).toEqual({ problem: null, changed: true, repair: null });

    // Through Redis, the instance that checked the update gives the text back, not this one.
    const other = deletedWhileTyped();
    expect(other.guard.check(other.adas).repair).toBeNull();
    expect(other.guard.follow(other.bobs)).toBeNull();
  });

  it('gives back typing inside a list item whose list was deleted, a paragraph per block', () => {
    const { live, guard } = setup([paragraph('intro'), list(['first'], ['second'])]);
    const adas = updateFrom(copyOf(live), (f) => f.delete(1, 1));
    const item = (f: Y.XmlFragment, index: number) =>
      ((f.get(1) as Y.XmlElement).get(index) as Y.XmlElement).get(0) as Y.XmlElement;
    const bobs = updateFrom(copyOf(live), (f) => {
      (item(f, 0).get(0) as Y.XmlText).insert(5, ' A');
      (item(f, 1).get(0) as Y.XmlText).insert(6, ' B');
    });
    guard.check(adas);
    const verdict = guard.check(bobs);
    expect(resultOf(live, adas, bobs, verdict.repair!).content).toEqual({
      type: 'doc',
      content: [paragraph('intro'), paragraph(' A'), paragraph(' B')],
    });
  });
});

describe('text lost to a concurrent deletion, from a hostile client', () => {
  it('gives back text typed 20,000 blocks deep into a deleted block, flat, without failing', () => {
    const { live, guard } = setup([paragraph('one'), paragraph('two'), paragraph('three')]);
    const adas = updateFrom(copyOf(live), (f) => f.delete(1, 1));
    // Built into the block Ada deletes, deeper than any check of a live block would let pass.
    const bobs = updateFrom(copyOf(live), (f) => {
      let parent = f.get(1) as Y.XmlElement;
      for (let level = 0; level < 20_000; level++) {
        const quote = new Y.XmlElement('blockquote');
        parent.insert(parent.length, [quote]);
        parent = quote;
      }
      parent.insert(0, [element('paragraph', 'deep words')]);
    });
    expect(guard.check(adas).repair).toBeNull();
    const verdict = guard.check(bobs);
    expect(verdict.problem).toBeNull();
    // The text comes back as one plain paragraph, whatever held it.
    const result = resultOf(live, adas, bobs, verdict.repair!);
    expect(result.problem).toBeNull();
    expect(result.content).toEqual({
      type: 'doc',
      content: [paragraph('one'), paragraph('deep words'), paragraph('three')],
    });
  });
});
