// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { formatStartTime, parsePixels, parseStartTime } from './mediaInput.ts';

describe('parseStartTime', () => {
  it('reads empty as the beginning', () => {
    expect(parseStartTime('')).toEqual({ ok: true, value: 0 });
    expect(parseStartTime('  ')).toEqual({ ok: true, value: 0 });
  });

  it('reads whole seconds, m:ss, h:mm:ss and 1m30s', () => {
    expect(parseStartTime('90')).toEqual({ ok: true, value: 90 });
    expect(parseStartTime('1:30')).toEqual({ ok: true, value: 90 });
    expect(parseStartTime('0:05')).toEqual({ ok: true, value: 5 });
    expect(parseStartTime('1:02:03')).toEqual({ ok: true, value: 3723 });
    expect(parseStartTime('1m30s')).toEqual({ ok: true, value: 90 });
    expect(parseStartTime('2h')).toEqual({ ok: true, value: 7200 });
    expect(parseStartTime('45s')).toEqual({ ok: true, value: 45 });
  });

  it('refuses seconds or minutes past 59 in clock form', () => {
    expect(parseStartTime('1:75').ok).toBe(false);
    expect(parseStartTime('1:60:00').ok).toBe(false);
  });

  it('explains the accepted forms when it cannot read the value', () => {
    const result = parseStartTime('soon');
    expect(result).toEqual({
      ok: false,
      message: 'Write the start time in seconds (90) or as minutes:seconds (1:30).',
    });
    expect(parseStartTime('-5').ok).toBe(false);
    expect(parseStartTime('1.5').ok).toBe(false);
  });
});

describe('formatStartTime', () => {
  it('shows m:ss, h:mm:ss, and nothing for the beginning', () => {
    expect(formatStartTime(0)).toBe('');
    expect(formatStartTime(5)).toBe('0:05');
    expect(formatStartTime(90)).toBe('1:30');
    expect(formatStartTime(3723)).toBe('1:02:03');
  });

  it('round-trips through parseStartTime', () => {
    for (const seconds of [1, 59, 60, 61, 599, 3600, 86399]) {
      expect(parseStartTime(formatStartTime(seconds))).toEqual({ ok: true, value: seconds });
    }
  });
});

describe('parsePixels', () => {
  it('reads empty as the natural size', () => {
    expect(parsePixels('')).toEqual({ ok: true, value: null });
  });

  it('reads whole pixels with or without px', () => {
    expect(parsePixels('640')).toEqual({ ok: true, value: 640 });
    expect(parsePixels(' 320px ')).toEqual({ ok: true, value: 320 });
  });

  it('refuses zero, fractions, other units and huge sizes', () => {
    for (const text of ['0', '12.5', '50%', '10em', '100000', 'wide']) {
      expect(parsePixels(text).ok).toBe(false);
    }
  });
});
