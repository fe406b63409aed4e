// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { drawPresence } from './presenceDrawing.ts';

describe('drawPresence', () => {
  it('shows a face per person shown, the rest as +N, and the count for screen readers', () => {
    const strip = document.createElement('div');
    drawPresence(strip, {
      count: 1000,
      faces: [{ name: 'ada', color: '#123456' }, { name: '<b>Bob</b>' }],
      more: 997,
    });
    expect(strip.hidden).toBe(false);
    expect(strip.getAttribute('aria-label')).toBe('1,000 people here');
    expect([...strip.children].map((child) => child.textContent)).toEqual(['A', '<', '+997']);
    expect(strip.querySelector('b')).toBeNull();
    expect(strip.title).toContain('<b>Bob</b>');
  });

  it('hides itself when nobody else is here', () => {
    const strip = document.createElement('div');
    drawPresence(strip, { count: 1, faces: [], more: 0 });
    expect(strip.hidden).toBe(true);
  });
});
