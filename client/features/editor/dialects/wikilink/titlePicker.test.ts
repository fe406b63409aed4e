import { describe, expect, it } from 'vitest';
import { matchingTitles } from './titlePickerView.ts';

describe('the titles offered after [[', () => {
  const titles = ['Garden plan', 'Old garden', 'garden plan', 'Pond', 'A [draft]', '', 'Seeds#2'];

  it('offers titles holding what was typed, regardless of case, those starting with it first', () => {
    expect(matchingTitles(titles, 'GARD')).toEqual(['Garden plan', 'Old garden']);
    expect(matchingTitles(titles, '')).toEqual(['Garden plan', 'Old garden', 'Pond']);
  });

  it('leaves out titles a wikilink cannot name', () => {
    expect(matchingTitles(titles, 'draft')).toEqual([]);
    expect(matchingTitles(titles, 'seeds')).toEqual([]);
  });
});
