import { describe, expect, it } from 'vitest';
import type { Node as PMNode } from '@tiptap/pm/model';
import { seededRandom } from '../../../test/seededRandom.ts';
import { parseMarkdown } from '../../markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../markdown/serializeMarkdown.ts';

const TYPES = ['note', 'NOTE', 'tip', 'WARNING', 'faq', 'my-type'];
const FOLDS = ['', '-', '+'];
const TITLES = ['', 'Title', 'A *styled* title', 'Ends with [!x]'];

let written = 0;

/**
 * A random Markdown block, possibly a callout or quote holding more blocks, `depth` deep; adds
 * the callouts it writes to `written`.
 */
function block(random: () => number, depth: number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const kind = depth > 3 ? 0 : Math.floor(random() * 6);
  const quote = (text: string) =>
    text
      .split('\n')
      .map((line) => (line === '' ? '>' : `> ${line}`))
      .join('\n');
  const inner = () => {
    const count = 1 + Math.floor(random() * 3);
    return Array.from({ length: count }, () => block(random, depth + 1)).join('\n\n');
  };
  switch (kind) {
    case 1:
    case 2: {
      const title = pick(TITLES);
      const header = `[!${pick(TYPES)}]${pick(FOLDS)}${title ? ` ${title}` : ''}`;
      written++;
      return quote(random() < 0.3 ? header : `${header}\n${inner()}`);
    }
    case 3:
      return quote(inner());
    case 4:
      return `- ${inner().split('\n').join('\n  ')}`;
    case 5:
      return '```\ncode [!note]\n```';
    default:
      return pick(['Some text.', '**Bold** words', 'Text with [!note] inside', '1. one']);
  }
}

function count(doc: PMNode, name: string): number {
  let n = 0;
  doc.descendants((node) => {
    if (node.type.name === name) n++;
  });
  return n;
}

describe('callouts in random mixtures', () => {
  it('read back as the same document after export, with every callout kept', () => {
    const random = seededRandom(12);
    for (let round = 0; round < 300; round++) {
      written = 0;
      const markdown = Array.from({ length: 3 }, () => block(random, 0)).join('\n\n') + '\n';
      const doc = parseMarkdown(markdown);
      const exported = serializeMarkdown(doc);
      const again = parseMarkdown(exported);
      expect(again.toJSON(), `round ${round}:\n${markdown}\nexported:\n${exported}`).toEqual(
        doc.toJSON(),
      );
      expect(count(again, 'callout'), markdown).toBe(written);
    }
  });
});
