import { deepEqual as fastEquals } from 'fast-equals';
import { describe, expect, it } from 'vitest';
import { deepEqual } from './deepEqual.ts';

const toolbar = {
  bold: true,
  italic: false,
  color: null,
  highlight: '#fde68a',
  align: 'left',
  block: 'heading',
};

describe('deepEqual, in place of fast-equals for @tiptap/react', () => {
  // Pairs on which it must answer as fast-equals does: what Inkwell's selectors return.
  const pairs: [string, unknown, unknown][] = [
    ['the same toolbar state', toolbar, { ...toolbar }],
    ['a toolbar state with one mark more', toolbar, { ...toolbar, italic: true }],
    ['a state with a key more', toolbar, { ...toolbar, extra: undefined }],
    ['a missing target and a target', null, { pos: 3, type: 'image' }],
    ['targets at two places', { pos: 3, alt: '' }, { pos: 4, alt: '' }],
    ['nested arrays', [[1, 'a'], { x: [null] }], [[1, 'a'], { x: [null] }]],
    ['arrays of two lengths', [1, 2], [1, 2, 3]],
    ['an array and an object', [1], { 0: 1 }],
    ['NaN', Number.NaN, Number.NaN],
    ['0 and -0', 0, -0],
    ['a number and its text', 1, '1'],
    ['null and undefined', null, undefined],
    ['dates', new Date(5), new Date(5)],
    ['two dates', new Date(5), new Date(6)],
    ['objects without a prototype', Object.assign(Object.create(null), { a: 1 }), { a: 1 }],
  ];

  it.each(pairs)('answers as fast-equals for %s', (_name, a, b) => {
    expect(deepEqual(a, b)).toBe(fastEquals(a, b));
    expect(deepEqual(b, a)).toBe(fastEquals(b, a));
  });

  it('takes any other object as equal only to itself', () => {
    class Box {
      constructor(readonly value: number) {}
    }
    const box = new Box(1);
    expect(deepEqual(box, box)).toBe(true);
    expect(deepEqual(new Box(1), new Box(1))).toBe(false);
    expect(deepEqual(new Map([[1, 2]]), new Map([[1, 2]]))).toBe(false);
  });
});
