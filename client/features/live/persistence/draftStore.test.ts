import { describe, expect, it } from 'vitest';
import { asDraft, isSupersededBy, type Draft } from './draftStore.ts';

const draft: Draft = {
  documentId: 'd',
  baseVersion: 2,
  title: 'T',
  json: '{"type":"doc"}',
  change: 5,
  savedAt: 1,
};

describe('asDraft', () => {
  it('accepts a well-formed draft', () => {
    expect(asDraft({ ...draft })).toEqual(draft);
  });

  it('refuses records of another shape', () => {
    expect(asDraft(null)).toBeNull();
    expect(asDraft('text')).toBeNull();
    expect(asDraft({ ...draft, json: { type: 'doc' } })).toBeNull();
    expect(asDraft({ ...draft, change: 1.5 })).toBeNull();
    expect(asDraft({ title: 'old format', json: '{}', updatedAt: 1 })).toBeNull();
  });
});

describe('isSupersededBy', () => {
  it('lets a draft go once its edit is acknowledged, never a newer one', () => {
    expect(isSupersededBy(draft, 5)).toBe(true);
    expect(isSupersededBy(draft, 6)).toBe(true);
    expect(isSupersededBy(draft, 4)).toBe(false);
  });

  it('never deletes a record it cannot read', () => {
    expect(isSupersededBy({ json: 3 }, 100)).toBe(false);
  });
});
