import { describe, expect, it } from 'vitest';
import { filterStyle, isSafeColor } from './style.ts';

describe('filterStyle', () => {
  it('keeps colours, highlight colours and alignment unchanged', () => {
    expect(filterStyle('span', 'color: #d73a49')).toEqual({
      style: 'color: #d73a49',
      unchanged: true,
    });
    expect(filterStyle('mark', 'background-color: hsl(50 100% 50% / 0.5);')).toEqual({
      style: 'background-color: hsl(50 100% 50% / 0.5)',
      unchanged: true,
    });
    expect(filterStyle('p', 'TEXT-ALIGN:center')).toEqual({
      style: 'text-align: center',
      unchanged: true,
    });
  });

  it('allows a bounded width and height on images only', () => {
    expect(filterStyle('img', 'width: 200px; height: 50%').unchanged).toBe(true);
    expect(filterStyle('div', 'width: 200px')).toEqual({ style: '', unchanged: false });
    expect(filterStyle('img', 'width: 123456px')).toEqual({ style: '', unchanged: false });
  });

  it('drops positioning, transforms, stacking and everything else Inkwell never writes', () => {
    expect(filterStyle('div', 'position: fixed; inset: 0; z-index: 99999; color: red')).toEqual({
      style: 'color: red',
      unchanged: false,
    });
    for (const style of [
      'transform: scale(50)',
      'margin-top: -9999px',
      'float: right',
      'position: sticky',
      'display: block',
      'font-size: 900px',
    ]) {
      expect(filterStyle('div', style), style).toEqual({ style: '', unchanged: false });
    }
  });

  it('keeps nothing from a style with escapes, comments, quotes or at-rules', () => {
    for (const style of [
      'color: r\\65 d',
      'color: red /* x */',
      "color: 'red'",
      'color: red; @import x',
      'color: red}body{position:fixed',
    ]) {
      expect(filterStyle('span', style), style).toEqual({ style: '', unchanged: false });
    }
  });
});

describe('isSafeColor', () => {
  it('accepts hex, rgb(), hsl() and names', () => {
    for (const color of [
      '#fff',
      '#ffcc0080',
      'rgb(1, 2, 3)',
      'rgba(1,2,3,0.5)',
      'hsl(1 2% 3%)',
      'red',
    ]) {
      expect(isSafeColor(color), color).toBe(true);
    }
  });

  it('rejects url(), var(), expression() and anything with more than one value', () => {
    for (const color of [
      'url(x)',
      'var(--a)',
      'expression(alert(1))',
      'red; position: fixed',
      'red blue',
      'rgb(var(--x))',
    ]) {
      expect(isSafeColor(color), color).toBe(false);
    }
  });
});
