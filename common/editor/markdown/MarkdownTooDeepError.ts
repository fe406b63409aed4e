import { MAX_DEPTH } from '../../api/limits.ts';
import { MarkdownImportError } from './decode.ts';

/**
 * Markdown whose blocks nest deeper than a document may (MAX_DEPTH, docs/limits.md). Refused
 * whole: markdown-it stops reading at its nesting limit and would silently drop the rest.
 * Import, paste and the AI preview show `message`, the CLI prints it.
 */
export class MarkdownTooDeepError extends MarkdownImportError {
  override name = 'MarkdownTooDeepError';
  /** The line (1-based) where the nesting passes the limit. */
  readonly line: number;

  constructor(line: number) {
    super(
      'too_deep',
      `Line ${line.toLocaleString('en-US')} nests blocks more than ${MAX_DEPTH} levels deep ` +
        `(each quote counts 1, each list level 2); Inkwell accepts at most ${MAX_DEPTH}.`,
    );
    this.line = line;
  }
}
