// @vitest-environment jsdom
import { Editor } from '@tiptap/core';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createObservable } from '../../lib/observable.ts';
import type { SaveStatus } from '../live/persistence/saveStatus.ts';
import { documentViewExtensions } from './editorExtensions.ts';
import { StatusBar } from './StatusBar.tsx';

const host = document.createElement('div');
afterEach(() => render(null, host));

describe('StatusBar', () => {
  it('keeps the save state as it is while every edit says "Saving…" again, and shows a change', () => {
    const editor = new Editor({ extensions: documentViewExtensions() });
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

    act(() => status.set({ kind: 'saved' }));
    expect(state.textContent).toBe('Saved');
    observer.disconnect();
    editor.destroy();
  });
});
