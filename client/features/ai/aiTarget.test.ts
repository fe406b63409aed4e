import { EditorState, TextSelection } from '@tiptap/pm/state';
import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../../common/editor/extensions.ts';
import { parseMarkdown } from '../../../common/editor/markdown/parseMarkdown.ts';
import { serializeMarkdown } from '../../../common/editor/markdown/index.ts';
import { prepareRequest } from './aiTarget.ts';

const schema = inkwellSchema();

/** 400 short blocks, headings and lists among them, so that context crosses many blocks. */
const MARKDOWN = Array.from({ length: 400 }, (_, i) =>
  i % 10 === 0
    ? `## Heading ${i}`
    : i % 7 === 0
      ? `- item ${i} one\n- item ${i} **two**`
      : `Paragraph ${i} with *some* words in it.`,
).join('\n\n');

function stateWith(from: number, to = from): EditorState {
  const doc = parseMarkdown(MARKDOWN, schema);
  return EditorState.create({ doc, selection: TextSelection.create(doc, from, to) });
}

/** A position inside the `index`th top-level block. */
function inside(state: EditorState, index: number, offset = 3): number {
  let pos = 0;
  for (let i = 0; i < index; i++) pos += state.doc.child(i).nodeSize;
  return pos + offset;
}

describe('prepareRequest', () => {
  it('sends the 2,000 characters around a selection, as the whole text on either side would give', () => {
    for (const index of [0, 1, 5, 200, 398, 399]) {
      const probe = stateWith(0);
      const from = inside(probe, index, 1);
      const state = stateWith(from, from + 5);
      const prepared = prepareRequest(state, { command: 'improve' }, serializeMarkdown, 24_000);
      if (!prepared.ok) throw new Error(prepared.message);
      const { doc } = state;
      const before = doc.textBetween(0, from, '\n\n').slice(-2000);
      const after = doc.textBetween(from + 5, doc.content.size, '\n\n').slice(0, 2000);
      expect(prepared.request.context, `block ${index}`).toBe(
        `${before}\n[…the text to work on…]\n${after}`.trim(),
      );
    }
  });

  it('continues from the last characters before the caret, as serialising all of them would', () => {
    const probe = stateWith(0);
    const caret = inside(probe, 300);
    const state = stateWith(caret);
    const prepared = prepareRequest(state, { command: 'continue' }, serializeMarkdown, 3000);
    if (!prepared.ok) throw new Error(prepared.message);
    const whole = serializeMarkdown(state.doc.cut(0, caret)).trim().slice(-3000);
    expect(prepared.request.text).toBe(whole);
    expect(prepared.request.text).toHaveLength(3000);
  });

  it('refuses a whole document over the cap by its text, and sends one under it whole', () => {
    const state = stateWith(inside(stateWith(0), 10));
    const chars = state.doc.textContent.length;
    const refused = prepareRequest(state, { command: 'summarize' }, serializeMarkdown, chars - 1);
    expect(refused).toEqual({
      ok: false,
      message: expect.stringContaining(`${chars.toLocaleString()} characters`),
    });
    const sent = prepareRequest(state, { command: 'summarize' }, serializeMarkdown, 1_000_000);
    if (!sent.ok) throw new Error(sent.message);
    expect(sent.request.text).toBe(serializeMarkdown(state.doc).trim());
  });
});
