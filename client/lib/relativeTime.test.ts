import { describe, expect, it } from 'vitest';
import { relativeTime } from './relativeTime.ts';

const now = Date.parse('2025-06-15T12:00:00.000Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('relativeTime', () => {
  it('says just now for the last minute, and for a clock slightly ahead', () => {
    expect(relativeTime(ago(30_000), now, 'en')).toBe('just now');
    expect(relativeTime(ago(-5_000), now, 'en')).toBe('just now');
  });

  it('counts minutes, hours and days', () => {
    expect(relativeTime(ago(5 * 60_000), now, 'en')).toBe('5 min. ago');
    expect(relativeTime(ago(3 * 3_600_000), now, 'en')).toBe('3 hr. ago');
    expect(relativeTime(ago(26 * 3_600_000), now, 'en')).toBe('yesterday');
    expect(relativeTime(ago(3 * 86_400_000), now, 'en')).toBe('3 days ago');
  });

  it('gives the date after a week, with the year only when it differs', () => {
    expect(relativeTime('2025-05-01T12:00:00.000Z', now, 'en')).toBe('May 1');
    expect(relativeTime('2024-05-01T12:00:00.000Z', now, 'en')).toBe('May 1, 2024');
  });

  it('returns nothing for a date it cannot read', () => {
    expect(relativeTime('yesterday-ish', now, 'en')).toBe('');
  });
});
