import { describe, expect, it } from 'vitest';
import { MAX_FACE_NAME, presenceSummaryPayload, readPresenceSummary } from './presenceSummary.ts';

describe('presence summaries', () => {
  it('read back what the server writes', () => {
    const summary = { count: 1000, faces: [{ name: 'Ada', color: '#123456' }, { name: 'Bob' }] };
    expect(readPresenceSummary(presenceSummaryPayload(summary))).toEqual(summary);
  });

  it.each([
    ['not JSON', 'presence'],
    ['another stateless message', JSON.stringify({ type: 'other', count: 1, faces: [] })],
    ['a negative count', JSON.stringify({ type: 'presence', count: -1, faces: [] })],
    ['a fractional count', JSON.stringify({ type: 'presence', count: 1.5, faces: [] })],
    ['faces that are no list', JSON.stringify({ type: 'presence', count: 1, faces: {} })],
    [
      'a colour the editor would not show',
      JSON.stringify({ type: 'presence', count: 1, faces: [{ name: 'A', color: 'red' }] }),
    ],
    [
      'a name longer than a label',
      JSON.stringify({
        type: 'presence',
        count: 1,
        faces: [{ name: 'x'.repeat(MAX_FACE_NAME + 1) }],
      }),
    ],
    ['null', 'null'],
  ])('are nothing when the payload holds %s', (_name, payload) => {
    expect(readPresenceSummary(payload)).toBeNull();
  });
});
