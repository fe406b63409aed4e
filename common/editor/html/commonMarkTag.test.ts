import { describe, expect, it } from 'vitest';
import { isCommonMarkTag } from './commonMarkTag.ts';

describe('isCommonMarkTag', () => {
  it('accepts open and closing tags as CommonMark writes them', () => {
    for (const tag of [
      '<div>',
      '<a href="x" title=\'y\' data-n=3>',
      '<img src=x.png\n  alt="two lines"/>',
      '<br />',
      '<my-element :bound _x.y>',
      '</div>',
      '</div\n>',
    ]) {
      expect(isCommonMarkTag(tag), tag).toBe(true);
    }
  });

  it('rejects what only a browser reads as a tag', () => {
    for (const tag of [
      '<div ]]class="callout">',
      '<div \uFFFDclass="note">',
      '<details $$open>',
      '<https://example.com/a.html#b>',
      '<not a tag\\>',
      '<svg/onload=alert(1)>',
      '<div class="a"title="b">',
      '<a href=x`y>',
      '</div class="x">',
    ]) {
      expect(isCommonMarkTag(tag), tag).toBe(false);
    }
  });
});
