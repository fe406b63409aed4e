import { blockDepth, unchunked, walkBlocks } from '../editor/chunks/chunks.ts';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { EditorState } from '@tiptap/pm/state';
import type { AiCommand, AiGenerateRequest } from '../../../common/api/ai.ts';

/** A command and its options, before the text it works on is taken from the editor. */
export type AiCommandRequest = Omit<AiGenerateRequest, 'text' | 'context'>;

/** Where a suggestion comes from and where it may go. Positions are mapped as the text changes. */
export interface SuggestionTarget {
  /** Start of the text the answer may replace (the caret for "continue"). */
  from: number;
  /** End of that text. */
  to: number;
  /** The boundary after the last block of the target: where "insert below" puts the answer. */
  insertAt: number;
  /** False when there is nothing to replace: "continue", or a question about the document. */
  replaceable: boolean;
}

/** Where an accepted answer goes. */
export type AcceptMode = 'replace' | 'insert';

/** Commands whose answer stands in for the text they were given. */
const REPLACING: ReadonlySet<AiCommand> = new Set([
  'improve',
  'fix',
  'shorter',
  'longer',
  'simplify',
  'tone',
  'translate',
]);

/** Commands that, with nothing selected, work on the whole document rather than the block. */
const WHOLE_DOCUMENT: ReadonlySet<AiCommand> = new Set(['summarize', 'explain', 'ask']);

/** Characters of surrounding text sent as `context`: enough for the model to match the voice. */
const CONTEXT_CHARS = 2000;

/** What Accept does by default for `command`. */
export function defaultAcceptMode(command: AiCommand, target: SuggestionTarget): AcceptMode {
  return target.replaceable && REPLACING.has(command) ? 'replace' : 'insert';
}

/** The text and target of a command, or the sentence that says why it cannot run. */
export type PreparedRequest =
  | { ok: true; request: AiGenerateRequest; target: SuggestionTarget }
  | { ok: false; message: string };

function blockEnd(doc: ProseMirrorNode, pos: number): number {
  const $pos = doc.resolve(pos);
  const depth = blockDepth($pos);
  return depth > 0 ? $pos.after(depth) : pos;
}

// What is sent is bounded, and so is the work of finding it: the helpers below walk top-level
// blocks out from the target until they hold enough text, instead of taking the text of the
// whole document on either side (in a 200k-word document that alone was a long task).

/** A top-level block boundary before `pos` with at least `chars` characters of text up to `pos`. */
function boundaryBefore(doc: ProseMirrorNode, pos: number, chars: number): number {
  let seen = 0;
  return walkBlocks(doc, pos, -1, (block) => {
    if (seen >= chars) return false;
    seen += block.textContent.length;
    return true;
  });
}

/** A top-level block boundary after `pos` with at least `chars` characters of text from `pos`. */
function boundaryAfter(doc: ProseMirrorNode, pos: number, chars: number): number {
  let seen = 0;
  return walkBlocks(doc, pos, 1, (block) => {
    if (seen >= chars) return false;
    seen += block.textContent.length;
    return true;
  });
}

/** Characters of text in `doc`, counted without building the text. */
function textLength(doc: ProseMirrorNode): number {
  let chars = 0;
  doc.descendants((node) => {
    if (node.isText) chars += node.text?.length ?? 0;
    return !node.isText;
  });
  return chars;
}

function tooMuch(chars: number, maxChars: number): PreparedRequest {
  return {
    ok: false,
    message: `That is too much text for the assistant: ${chars.toLocaleString()} characters, at most ${maxChars.toLocaleString()}. Select less.`,
  };
}

/**
 * Takes the text a command works on from the editor: the selection; with none, the text before
 * the caret ("continue"), the whole document (summarise, explain, ask) or the caret's block.
 * `toMarkdown` turns a slice of the document into Markdown, the format the model reads.
 */
export function prepareRequest(
  state: EditorState,
  command: AiCommandRequest,
  toMarkdown: (doc: ProseMirrorNode) => string,
  maxChars: number,
): PreparedRequest {
  const { doc, selection } = state;
  const end = doc.content.size;
  const markdownOf = (from: number, to: number) => toMarkdown(unchunked(doc.cut(from, to))).trim();
  let target: SuggestionTarget;
  let text: string;
  let context: string | undefined;
  if (!selection.empty) {
    const { from, to } = selection;
    target = { from, to, insertAt: blockEnd(doc, to), replaceable: true };
    text = markdownOf(from, to);
    const beforeFrom = boundaryBefore(doc, from, CONTEXT_CHARS);
    const afterTo = boundaryAfter(doc, to, CONTEXT_CHARS);
    const before = doc.textBetween(beforeFrom, from, '\n\n').slice(-CONTEXT_CHARS);
    const after = doc.textBetween(to, afterTo, '\n\n').slice(0, CONTEXT_CHARS);
    context = `${before}\n[…the text to work on…]\n${after}`.trim();
  } else if (command.command === 'continue') {
    const caret = selection.from;
    target = { from: caret, to: caret, insertAt: blockEnd(doc, caret), replaceable: false };
    // The end of a long document matters most for continuing it. Markdown is at least as long
    // as the text it holds, so what follows the boundary yields the same last `maxChars`.
    text = markdownOf(boundaryBefore(doc, caret, maxChars), caret).slice(-maxChars);
  } else if (WHOLE_DOCUMENT.has(command.command)) {
    const caret = selection.from;
    target = { from: caret, to: caret, insertAt: blockEnd(doc, caret), replaceable: false };
    // Refused by its text alone before the whole document is turned into Markdown.
    const chars = textLength(doc);
    if (chars > maxChars) return tooMuch(chars, maxChars);
    text = markdownOf(0, end);
  } else {
    const $caret = selection.$from;
    const depth = blockDepth($caret);
    const from = depth > 0 ? $caret.before(depth) : 0;
    const to = depth > 0 ? $caret.after(depth) : end;
    target = { from, to, insertAt: to, replaceable: true };
    text = markdownOf(from, to);
  }
  if (command.command !== 'ask' && text === '') {
    const message =
      command.command === 'continue'
        ? 'There is no text before the cursor to continue.'
        : 'There is no text to work on: select some first.';
    return { ok: false, message };
  }
  if (text.length > maxChars) return tooMuch(text.length, maxChars);
  return { ok: true, request: { ...command, text, context }, target };
}
