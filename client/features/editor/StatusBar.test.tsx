// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { CharacterCount } from '@tiptap/extensions/character-count';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createObservable } from '../../lib/observable.ts';
import type { SaveStatus } from '../live/persistence/saveStatus.ts';
import { documentViewExtensions } from './editorExtensions.ts';
import { SAVED_SETTLES_MS, StatusBar } from './StatusBar.tsx';

const host = document.createElement('div');
// The page's editor counts with CharacterCount (editorExtensions.ts).
const extensions = [...documentViewExtensions(), CharacterCount];
afterEach(() => {
  render(null, host);
  vi.useRealTimers();
});

describe('StatusBar', () => {
  it('keeps the save state as it is while every edit says "Saving…" again, and shows a change', () => {
    const editor = new Editor({ extensions });
    const status = createObservable<SaveStatus>({ kind: 'saved' });
    act(() => render(<StatusBar editor={editor} saveState={status} />, host));
    const state = host.querySelector('[role=status]')!;
    expect(state.textContent).toBe('Saved');

    act(() => status.set({ kind: 'saving' }));
    const saying = state.firstChild;
    expect(state.textContent).toBe('Saving…');
    // Each keystroke's update tells the bar again: the same words, the same text node.
    const replaced: MutationRecord[] = [];
    const observer = new MutationObserver((records) => replaced.push(...records));
    observer.observe(state, { childList: true, attributes: true, characterData: true });
    for (let key = 0; key < 5; key++) act(() => status.set({ kind: 'saving' }));
    observer.takeRecords().forEach((record) => replaced.push(record));
    expect(replaced).toEqual([]);
    expect(state.firstChild).toBe(saying);

    observer.disconnect();
    editor.destroy();
  });

  it('says "Saved" once the saves have held for a moment, and a problem at once', () => {
    vi.useFakeTimers();
    const editor = new Editor({ extensions });
    const status = createObservable<SaveStatus>({ kind: 'saving' });
    act(() => render(<StatusBar editor={editor} saveState={status} />, host));
    const state = host.querySelector('[role=status]')!;
    expect(state.textContent).toBe('Saving…');

    // Typing: each key saved before the next is typed. The bar stays on "Saving…".
    for (let key = 0; key < 5; key++) {
      act(() => status.set({ kind: 'saved' }));
      act(() => void vi.advanceTimersByTime(SAVED_SETTLES_MS / 3));
      expect(state.textContent).toBe('Saving…');
      act(() => status.set({ kind: 'saving' }));
    }
    // The writer stops: "Saved" once the last save has held.
    act(() => status.set({ kind: 'saved' }));
    act(() => void vi.advanceTimersByTime(SAVED_SETTLES_MS - 1));
    expect(state.textContent).toBe('Saving…');
    act(() => void vi.advanceTimersByTime(1));
    expect(state.textContent).toBe('Saved');

    // A problem shows at once, and so does its end: it was never "Saving…".
    act(() => status.set({ kind: 'retrying' }));
    expect(state.textContent).toBe("Couldn't save, retrying");
    act(() => status.set({ kind: 'saved' }));
    expect(state.textContent).toBe('Saved');

    // A problem while "Saved" waits to show cancels it.
    act(() => status.set({ kind: 'saving' }));
    act(() => status.set({ kind: 'saved' }));
    act(() => status.set({ kind: 'offline', kept: false }));
    act(() => void vi.advanceTimersByTime(SAVED_SETTLES_MS * 2));
    expect(state.textContent).toBe('Offline, not saved yet');
    editor.destroy();
  });

  it('counts words once the writer pauses, and during steady typing at most every 2 s', () => {
    vi.useFakeTimers();
    const editor = new Editor({ extensions, content: '<p>one two</p>' });
    const status = createObservable<SaveStatus>({ kind: 'saved' });
    act(() => render(<StatusBar editor={editor} saveState={status} />, host));
    const words = host.querySelector('[data-testid=word-count]')!;
    act(() => void vi.advanceTimersByTime(1100));
    expect(words.textContent).toBe('2 words');

    // A word every 100 ms: not counted after each, but within 2 s.
    let typed = 0;
    const typeWord = () => {
      act(() => void editor.commands.insertContentAt(editor.state.doc.content.size - 1, ' more'));
      typed += 1;
    };
    typeWord();
    act(() => void vi.advanceTimersByTime(100));
    typeWord();
    expect(words.textContent).toBe('2 words');
    for (let step = 0; step < 25 && words.textContent === '2 words'; step++) {
      act(() => void vi.advanceTimersByTime(100));
      typeWord();
    }
    expect(typed).toBeLessThanOrEqual(23);
    expect(words.textContent).not.toBe('2 words');

    // A pause: counted half a second (and an idle moment) after the last word.
    typeWord();
    act(() => void vi.advanceTimersByTime(400));
    expect(words.textContent).not.toBe(`${typed + 2} words`);
    act(() => void vi.advanceTimersByTime(1200));
    expect(words.textContent).toBe(`${typed + 2} words`);
    editor.destroy();
  });
});
