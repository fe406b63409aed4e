import type { Node as PMNode } from '@tiptap/pm/model';
import { calloutAttrs } from './Callout.ts';

/**
 * A callout as Markdown: its header `[!type]fold Title` as written, then its blocks (already
 * written by the caller as `body`), every line quoted with `> `.
 */
export function serializeCallout(node: PMNode, body: string): string {
  const { type, fold, title } = calloutAttrs(node.attrs);
  const header = `[!${type}]${fold}${title === '' ? '' : ` ${title}`}`;
  const text = body === '' ? header : `${header}\n${body}`;
  return text
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}
