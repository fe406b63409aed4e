import { describe, expect, it } from 'vitest';
import { presenceView } from './presenceView.ts';

const state = (name: string, color = '#123456') => ({ user: { name, color } });

describe('presenceView', () => {
  it('shows the carets held first, then the summary’s faces, each once, and counts the rest', () => {
    const states = new Map<number, unknown>([
      [1, state('Me')],
      [2, state('Near')],
      [3, { user: { name: 'Odd', color: 'red' } }],
    ]);
    const view = presenceView(
      1,
      states,
      {
        count: 1000,
        faces: [{ name: 'Near', color: '#123456' }, { name: 'Far' }, { name: 'Later' }],
      },
      3,
    );
    expect(view).toEqual({
      count: 1000,
      faces: [{ name: 'Near', color: '#123456' }, { name: 'Odd' }, { name: 'Far' }],
      more: 996,
    });
  });

  it('counts the states it holds when the server sends no summary', () => {
    const states = new Map<number, unknown>([
      [1, state('Me')],
      [2, state('Ada')],
      [3, {}],
    ]);
    expect(presenceView(1, states, null)).toEqual({
      count: 3,
      faces: [{ name: 'Ada', color: '#123456' }],
      more: 1,
    });
  });

  it('is nobody else for a page alone', () => {
    expect(presenceView(1, new Map([[1, state('Me')]]), { count: 1, faces: [] })).toEqual({
      count: 1,
      faces: [],
      more: 0,
    });
  });
});
