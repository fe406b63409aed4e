import { describe, expect, it } from 'vitest';
import { createObservable } from './observable.ts';

describe('createObservable', () => {
  it('tells subscribers about changes only, until they unsubscribe', () => {
    const value = createObservable('a');
    const seen: string[] = [];
    const stop = value.subscribe((next) => seen.push(next));
    value.set('a');
    value.set('b');
    stop();
    value.set('c');
    expect(seen).toEqual(['b']);
    expect(value.get()).toBe('c');
  });
});
