import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../test/seededRandom.ts';
import { inkwellSchema } from '../extensions.ts';
import { parseMarkdown } from '../markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../markdown/serializeMarkdown.ts';

const PIECES = [
  '$',
  '$$',
  '==',
  '=',
  '%%',
  '#a',
  '#1',
  '[^1]',
  '[^',
  ' ',
  'x',
  '5',
  '\\',
  '*',
  '(',
  ']',
];
const CONSTRUCTS = [
  '$\\,x$',
  '$$a$$',
  '==hi==',
  '%%note%%',
  '#tag',
  '[^n]',
  '**b**',
  'plain',
  '(#t)',
];

function draw(random: () => number, from: string[], length: number, separator = ''): string {
  const out: string[] = [];
  for (let i = 0; i < length; i++) out.push(from[Math.floor(random() * from.length)]!);
  return out.join(separator);
}

describe('the inline constructs mixed at random', () => {
  it('text full of their delimiters comes back as the same text (escapes where needed)', () => {
    const schema = inkwellSchema();
    const random = seededRandom(12);
    for (let run = 0; run < 2000; run++) {
      const text = draw(random, PIECES, 1 + Math.floor(random() * 12)).trim();
      if (!text) continue;
      const doc = schema.node('doc', null, [schema.node('paragraph', null, [schema.text(text)])]);
      const markdown = serializeMarkdown(doc);
      expect(parseMarkdown(markdown).textContent, JSON.stringify(markdown)).toBe(text);
    }
  });

  it('a mixture of constructs, written apart as people write them, comes back byte for byte', () => {
    const random = seededRandom(7);
    for (let run = 0; run < 1000; run++) {
      const line = draw(
        random,
        CONSTRUCTS,
        2 + Math.floor(random() * 8),
        random() < 0.5 ? ' ' : ', ',
      );
      const markdown = `${line}\n\n[^n]: Note with $y$.\n`;
      const once = serializeMarkdown(parseMarkdown(markdown));
      expect(once, JSON.stringify(markdown)).toBe(markdown);
    }
  });
});
