// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { UndoRedo } from '@tiptap/extensions';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contentExtensions } from '../../../common/editor/extensions.ts';
import { parseMarkdown, serializeMarkdown } from '../../../common/editor/markdown/index.ts';
import { ApiError } from '../../lib/api.ts';
import { prepareRequest, type AiCommandRequest } from './aiTarget.ts';
import { aiSuggestionPlugin, shownSuggestion } from './suggestionPlugin.ts';
import { SuggestionSession } from './SuggestionSession.ts';
import { isStreaming, shownVariant } from './suggestionState.ts';
import { fakeAiClient, type FakeAnswer, type FakeEvent } from './test/fakeAiClient.ts';

const DONE: FakeEvent = [
  'done',
  { usage: { inputTokens: 1, outputTokens: 1, estimated: false }, finishReason: 'stop' },
];

let editor: Editor;

afterEach(() => editor.destroy());

/** An editor holding two paragraphs, with "quick brown" of the first selected. */
function setUp(...answers: FakeAnswer[]) {
  editor = new Editor({
    extensions: [...contentExtensions(), UndoRedo],
    content: '<p>The quick brown fox.</p><p>Second paragraph.</p>',
  });
  const start = 1 + 'The '.length;
  editor.view.dispatch(
    editor.state.tr.setSelection(TextSelection.create(editor.state.doc, start, start + 11)),
  );
  const fake = fakeAiClient(...answers);
  const frames: (() => void)[] = [];
  let session: SuggestionSession | null = null;
  editor.registerPlugin(aiSuggestionPlugin());
  const transactions = vi.fn();
  editor.on('transaction', transactions);
  const start_ = (command: AiCommandRequest = { command: 'improve' }) => {
    const prepared = prepareRequest(editor.state, command, serializeMarkdown, 24_000);
    if (!prepared.ok) throw new Error(prepared.message);
    session = new SuggestionSession(editor, {
      ...prepared,
      parseMarkdown,
      client: fake.client,
      schedule: (callback) => frames.push(callback),
      announce: vi.fn(),
    });
    session.start();
    return session;
  };
  const flushFrames = () => frames.splice(0).forEach((frame) => frame());
  return { fake, start: start_, flushFrames, transactions, before: editor.getJSON() };
}

const settled = (session: SuggestionSession) =>
  vi.waitFor(() => expect(isStreaming(session.current)).toBe(false));

describe('SuggestionSession', () => {
  it('streams into a widget without touching the document, one render per frame', async () => {
    const { start, flushFrames, transactions, before } = setUp([
      ['delta', { text: 'The **swift** ' }],
      ['delta', { text: 'brown' }],
      DONE,
    ]);
    const session = start();
    await settled(session);
    flushFrames();
    expect(shownVariant(session.current).markdown).toBe('The **swift** brown');
    const box = editor.view.dom.querySelector('.ink-ai-suggestion');
    expect(box?.querySelector('strong')?.textContent).toBe('swift');
    expect(box?.textContent).toContain('Accept');
    expect(editor.getJSON()).toEqual(before);
    // Only showing the suggestion was a transaction; the streamed text never was.
    expect(transactions).toHaveBeenCalledTimes(1);
  });

  it('accepts as one transaction that a single undo takes back', async () => {
    const { start, transactions, before } = setUp([['delta', { text: 'swift red' }], DONE]);
    const session = start();
    await settled(session);
    transactions.mockClear();
    session.accept('replace');
    expect(editor.state.doc.firstChild?.textContent).toBe('The swift red fox.');
    expect(shownSuggestion(editor.state)).toBeNull();
    const changes = transactions.mock.calls.filter(([event]) => event.transaction.docChanged);
    expect(changes).toHaveLength(1);
    editor.commands.undo();
    expect(editor.getJSON()).toEqual(before);
  });

  it('inserts below the block, at the mapped place after edits made meanwhile', async () => {
    const { start } = setUp([['delta', { text: 'A new paragraph.' }], DONE]);
    const session = start({ command: 'explain' });
    editor.view.dispatch(editor.state.tr.insertText('Intro ', 1));
    await settled(session);
    session.accept('insert');
    expect(editor.state.doc.childCount).toBe(3);
    expect(editor.state.doc.child(0).textContent).toBe('Intro The quick brown fox.');
    expect(editor.state.doc.child(1).textContent).toBe('A new paragraph.');
  });

  it('leaves the document deep-equal to before when discarded, also by Escape', async () => {
    const { start, before } = setUp([['delta', { text: 'Changed' }], DONE]);
    const session = start();
    await settled(session);
    editor.view.dom.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(shownSuggestion(editor.state)).toBeNull();
    expect(editor.view.dom.querySelector('.ink-ai-suggestion')).toBeNull();
    expect(editor.getJSON()).toEqual(before);
  });

  it('stops by aborting the request and keeps what arrived', async () => {
    const { start, fake } = setUp({ events: [['delta', { text: 'Half' }]], hang: true });
    const session = start();
    await vi.waitFor(() => expect(shownVariant(session.current).markdown).toBe('Half'));
    session.stop();
    expect(fake.calls[0]?.signal?.aborted).toBe(true);
    expect(shownVariant(session.current).status).toBe('stopped');
  });

  it('shows a rate limit with its wait and leaves the document alone', async () => {
    const limited = new ApiError('rate_limited', 'Slow down.', 429, {}, undefined, 12);
    const { start, flushFrames, before } = setUp(limited);
    const session = start();
    await settled(session);
    flushFrames();
    expect(shownVariant(session.current).error).toBe('Too many AI requests — try again in 12 s.');
    expect(editor.view.dom.querySelector('.ink-ai-suggestion__error')?.textContent).toContain(
      '12 s',
    );
    expect(editor.getJSON()).toEqual(before);
  });

  it('shows an error event of the stream with the provider message', async () => {
    const { start } = setUp([
      ['delta', { text: 'Par' }],
      ['error', { code: 'ai_upstream_error', message: 'upstream timed out' }],
    ]);
    const session = start();
    await settled(session);
    expect(shownVariant(session.current).error).toBe('The AI provider failed: upstream timed out');
  });

  it('refuses, whole and with the reason, an answer nested deeper than a document may be', async () => {
    const { start, flushFrames, before } = setUp([
      ['delta', { text: `${'>'.repeat(150)} deep` }],
      DONE,
    ]);
    const session = start({ command: 'explain' });
    await settled(session);
    session.accept('insert');
    flushFrames();
    expect(editor.getJSON()).toEqual(before);
    const message =
      'Line 1 nests blocks more than 100 levels deep (each quote counts 1, each list level 2); ' +
      'Inkwell accepts at most 100.';
    expect(shownVariant(session.current)).toMatchObject({ status: 'error', error: message });
    expect(editor.view.dom.querySelector('.ink-ai-suggestion__error')?.textContent).toBe(message);
    expect(shownSuggestion(editor.state)).not.toBeNull();
  });

  it('refuses an answer holding a lone surrogate or a NUL, saying where', async () => {
    for (const [text, what] of [
      ['Fine.\n\nCut \ud83d here.', 'Line 3, column 5 holds half of a character'],
      ['Fine.\nA\u0000B', 'Line 2, column 2 holds a NUL character'],
    ] as const) {
      const { start, before } = setUp([['delta', { text }], DONE]);
      const session = start({ command: 'explain' });
      await settled(session);
      session.accept('insert');
      expect(editor.getJSON()).toEqual(before);
      expect(shownVariant(session.current).error).toContain(what);
      session.discard();
    }
  });

  it('refuses an answer that would nest too deeply where it goes in', async () => {
    const { start } = setUp([['delta', { text: `${'>'.repeat(60)} deep` }], DONE]);
    let quotes: object = { type: 'paragraph', content: [{ type: 'text', text: 'inside' }] };
    for (let i = 0; i < 60; i++) quotes = { type: 'blockquote', content: [quotes] };
    editor.commands.insertContentAt(editor.state.doc.content.size, quotes);
    // "inside", in its paragraph in 60 quotes.
    const end = editor.state.doc.content.size - 61;
    editor.commands.setTextSelection({ from: end - 'inside'.length, to: end });
    const before = editor.getJSON();
    const session = start();
    await settled(session);
    session.accept('replace');
    expect(editor.getJSON()).toEqual(before);
    expect(shownVariant(session.current).error).toBe(
      'This answer would nest blocks 121 levels deep; Inkwell accepts at most 100 ' +
        '(each quote counts 1, each list level 2).',
    );
  });

  it('retries into a second variant and accepts the one on show', async () => {
    const { start, fake, flushFrames } = setUp(
      [['delta', { text: 'first' }], DONE],
      [['delta', { text: 'second' }], DONE],
    );
    const session = start();
    await settled(session);
    session.retry();
    await settled(session);
    expect(fake.calls).toHaveLength(2);
    expect(session.current.index).toBe(1);
    flushFrames();
    session.view.dom.querySelector<HTMLButtonElement>('[aria-label="Previous answer"]')?.click();
    expect(session.current.index).toBe(0);
    session.accept('replace');
    expect(editor.state.doc.firstChild?.textContent).toBe('The first fox.');
  });
});
