import { describe, expect, it } from 'vitest';
import {
  canAccept,
  initialSuggestion,
  isStreaming,
  shownVariant,
  suggestionReducer,
  type SuggestionAction,
  type SuggestionState,
} from './suggestionState.ts';

const apply = (state: SuggestionState, ...actions: SuggestionAction[]): SuggestionState =>
  actions.reduce(suggestionReducer, state);
const run = (...actions: SuggestionAction[]): SuggestionState =>
  apply(initialSuggestion(), ...actions);

describe('suggestionReducer', () => {
  it('appends deltas while streaming and cannot be accepted before the end', () => {
    const state = run({ type: 'delta', text: 'Hel' }, { type: 'delta', text: 'lo' });
    expect(shownVariant(state).markdown).toBe('Hello');
    expect(isStreaming(state)).toBe(true);
    expect(canAccept(state)).toBe(false);
  });

  it('can be accepted once done, and remembers a cut-off answer', () => {
    const state = run({ type: 'delta', text: 'Hi' }, { type: 'done', truncated: true });
    expect(shownVariant(state)).toMatchObject({ status: 'done', truncated: true });
    expect(canAccept(state)).toBe(true);
  });

  it('keeps what arrived when stopped and ignores later events', () => {
    const state = run(
      { type: 'delta', text: 'Part' },
      { type: 'stop' },
      { type: 'delta', text: ' more' },
      { type: 'done', truncated: false },
    );
    expect(shownVariant(state)).toMatchObject({ markdown: 'Part', status: 'stopped' });
    expect(canAccept(state)).toBe(true);
  });

  it('shows an error and offers nothing to accept', () => {
    const state = run({ type: 'delta', text: 'x' }, { type: 'error', message: 'Provider down' });
    expect(shownVariant(state)).toMatchObject({ status: 'error', error: 'Provider down' });
    expect(canAccept(state)).toBe(false);
  });

  it('cannot accept an empty answer', () => {
    expect(canAccept(run({ type: 'done', truncated: false }))).toBe(false);
  });

  it('retries into a new variant and flips between the variants', () => {
    let state = run({ type: 'delta', text: 'One' }, { type: 'done', truncated: false });
    state = suggestionReducer(state, { type: 'retry' });
    expect(state.index).toBe(1);
    expect(isStreaming(state)).toBe(true);
    // No flipping while the new answer streams.
    expect(suggestionReducer(state, { type: 'show', index: 0 })).toBe(state);
    state = apply(
      state,
      { type: 'delta', text: 'Two' },
      { type: 'done', truncated: false },
      { type: 'show', index: 0 },
    );
    expect(shownVariant(state).markdown).toBe('One');
    expect(state.variants.map((v) => v.markdown)).toEqual(['One', 'Two']);
    expect(suggestionReducer(state, { type: 'show', index: 2 })).toBe(state);
  });

  it('does not retry while an answer is streaming', () => {
    const state = run({ type: 'delta', text: 'x' });
    expect(suggestionReducer(state, { type: 'retry' })).toBe(state);
  });

  it('retries after an error', () => {
    const state = run({ type: 'error', message: 'Too many' }, { type: 'retry' });
    expect(state.variants).toHaveLength(2);
    expect(shownVariant(state).status).toBe('streaming');
  });
});
