import { describe, expect, it } from 'vitest';
import { EditorState } from '@tiptap/pm/state';
import { parseMarkdown } from '../../../../../common/editor/markdown/parseMarkdown.ts';
import { footnotePlugin } from './footnotePlugin.ts';

const plugin = footnotePlugin();

/** Each reference as label=number, read through the positions the plugin keeps. */
function numbered(state: EditorState): string[] {
  const { index } = plugin.getState(state)!;
  return index.refs.map(({ pos, label }) => {
    expect(state.doc.nodeAt(pos)?.attrs.label).toBe(label);
    return `${label}=${index.numbers.get(label)}`;
  });
}

describe('footnotePlugin', () => {
  const doc = parseMarkdown('Intro.\n\nA[^a] and B[^b].\n\n[^a]: One.\n[^b]: Two.\n');

  it('moves the numbers along when typing elsewhere, and renumbers when a reference goes', () => {
    let state = EditorState.create({ doc, plugins: [plugin] });
    expect(numbered(state)).toEqual(['a=1', 'b=2']);
    state = state.apply(state.tr.insertText('More ', 1));
    expect(numbered(state)).toEqual(['a=1', 'b=2']);
    const refA = plugin.getState(state)!.index.refs[0]!.pos;
    state = state.apply(state.tr.delete(refA, refA + 1));
    expect(numbered(state)).toEqual(['b=1']);
  });
});
