import type { Node as PMNode } from '@tiptap/pm/model';
import { calloutAttrs } from './Callout.ts';
import { isHeaderSpace, isTrailing } from '../../nodes/sourceSyntax.ts';

/**
 * A callout as Markdown: its header `[!type]fold Title` as written (with the blanks its file had
 * around the title), then its blocks (already written by the caller as `body`, after `gap`: the
 * header's newline and the blank lines below it), every line quoted with `> `, or with `>` and
 * the callout's `blank` on a blank line.
 */
export function serializeCallout(node: PMNode, body: string, gap = '\n'): string {
  const { type, fold, title } = calloutAttrs(node.attrs);
  const { space, trailing, blank } = node.attrs as Record<string, unknown>;
  const between = isHeaderSpace(space) ? space : title === '' ? '' : ' ';
  const header = `[!${type}]${fold}${between}${title}${isTrailing(trailing) ? trailing : ''}`;
  const empty = `>${isTrailing(blank) ? blank : ''}`;
  const text = body === '' ? header : `${header}${gap}${body}`;
  return text
    .split('\n')
    .map((line) => (line === '' ? empty : `> ${line}`))
    .join('\n');
}
