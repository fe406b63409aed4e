// @vitest-environment jsdom
import type { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { seededRandom } from '../../../../common/test/seededRandom.ts';
import { blocksOf, unchunked } from '../../editor/chunks/chunks.ts';
import { collabEditor, replicas } from './test/testEditors.ts';

const opened: Editor[] = [];
afterEach(() => {
  for (const editor of opened.splice(0)) editor.destroy();
});

const REMOTE = 'test-link';

/**
 * Y.Docs linked as through a server: each update reaches each other doc in the order it was
 * made, but whenever `deliverOne` picks it, so that updates cross at random.
 */
function randomLinks(docs: readonly Y.Doc[], random: () => number) {
  // queues[from][to]: the updates made on docs[from] not yet applied to docs[to].
  const queues = docs.map(() => docs.map((): Uint8Array[] => []));
  docs.forEach((doc, from) => {
    doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === REMOTE) return;
      queues[from]!.forEach((queue, to) => {
        if (to !== from) queue.push(update);
      });
    });
  });
  const waiting = () =>
    queues.flatMap((row) => row.flatMap((queue, to) => (queue.length > 0 ? [{ queue, to }] : [])));
  return {
    pending: () => waiting().length > 0,
    deliverOne: () => {
      const links = waiting();
      const link = links[Math.floor(random() * links.length)];
      const update = link?.queue.shift();
      if (link && update) Y.applyUpdate(docs[link.to]!, update, REMOTE);
    },
  };
}

/** A key as the editor gets it: a character typed at the caret, or Enter (as a key down). */
function press(editor: Editor, key: string): void {
  const { view } = editor;
  if (key !== '\n') view.dispatch(view.state.tr.insertText(key));
  else {
    const event = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    view.someProp('handleKeyDown', (handle) => handle(view, event));
  }
}

function caretAtEnd(editor: Editor): void {
  const { doc } = editor.state;
  editor.view.dispatch(editor.state.tr.setSelection(TextSelection.atEnd(doc)));
}

function paragraphs(editor: Editor): string[] {
  return blocksOf(editor.state.doc).map((block) => block.textContent);
}

/**
 * Writers whose carets start at the end of the paragraph `Start` type `scripts` (one per
 * writer; `\n` is Enter) key by key, their updates reaching the others after random delays;
 * returns the paragraphs all of them end with.
 */
function typeAtOnce(scripts: readonly string[], seed: number): string[] {
  const random = seededRandom(seed);
  const docs = replicas(
    { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Start' }] }] },
    scripts.length,
  );
  const editors = docs.map((doc) => {
    const editor = collabEditor(doc);
    opened.push(editor);
    caretAtEnd(editor);
    return editor;
  });
  const links = randomLinks(docs, random);
  const next = scripts.map(() => 0);
  const typing = () => scripts.some((script, i) => next[i]! < script.length);
  while (typing() || links.pending()) {
    if (typing() && (random() < 0.5 || !links.pending())) {
      const writers = scripts.flatMap((script, i) => (next[i]! < script.length ? [i] : []));
      const writer = writers[Math.floor(random() * writers.length)]!;
      press(editors[writer]!, scripts[writer]![next[writer]!]!);
      next[writer]!++;
    } else {
      links.deliverOne();
    }
  }
  const result = paragraphs(editors[0]!);
  for (const editor of editors) {
    expect(unchunked(editor.state.doc).toJSON()).toEqual(unchunked(editors[0]!.state.doc).toJSON());
  }
  return result;
}

/**
 * Whether `paragraphs` is what writers typing `scripts` at the end of `Start` may end with, each
 * keeping their text whole: the first paragraph `Start` and each writer's text before their first
 * Enter, in some order; then each writer's paragraphs, whole and in their order, interleaved.
 */
function keptWhole(scripts: readonly string[], paragraphs: readonly string[]): boolean {
  const parts = scripts.map((script) => script.split('\n'));
  const firsts = parts.map((p) => p[0]!);
  const [first, ...rest] = paragraphs;
  const firstOk = orders(firsts).some((order) => first === `Start${order.join('')}`);
  return (
    firstOk &&
    interleaves(
      parts.map((p) => p.slice(1)),
      rest,
    )
  );
}

function orders(items: readonly string[]): string[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    orders([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

function interleaves(lists: readonly (readonly string[])[], result: readonly string[]): boolean {
  if (result.length === 0) return lists.every((list) => list.length === 0);
  return lists.some(
    (list, i) =>
      list[0] === result[0] &&
      interleaves(
        lists.map((l, j) => (j === i ? l.slice(1) : l)),
        result.slice(1),
      ),
  );
}

const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);

describe('writers typing at one spot at the same time', () => {
  it.each(SEEDS)('each keep their words whole and together (seed %i)', (seed) => {
    // Words that share letters: a letter typed before the same letter is where ties show.
    const scripts = [
      [' one two three', ' alpha bravo'],
      [' noon no', ' on onto', ' oo n'],
      [' banana', ' nab ana', ' aaa'],
    ][seed % 3]!;
    const paragraphs = typeAtOnce(scripts, seed);
    expect(keptWhole(scripts, paragraphs), JSON.stringify(paragraphs)).toBe(true);
  });

  it.each(SEEDS)('each starting new paragraphs at the end get their own (seed %i)', (seed) => {
    const scripts = [
      [' alpha bravo charlie', '\none two three'],
      [' one two\nthree four', ' alpha bravo\ncharlie delta'],
      ['\none two\nthree', '\nalpha\nbravo', ' on to\ntot'],
    ][seed % 3]!;
    const paragraphs = typeAtOnce(scripts, seed);
    expect(keptWhole(scripts, paragraphs), JSON.stringify(paragraphs)).toBe(true);
  });
});
