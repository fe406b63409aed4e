import { EditorState } from '@tiptap/pm/state';
import type { DecorationSet } from '@tiptap/pm/view';
import { describe, expect, it } from 'vitest';
import { inkwellSchema } from '../../../../../common/editor/extensions.ts';
import { mermaidPlugin } from './mermaidPlugin.ts';

const schema = inkwellSchema();
const paragraph = (text: string) => schema.nodes.paragraph!.create(null, schema.text(text));
const code = (language: string, text: string) =>
  schema.nodes.codeBlock!.create({ language }, schema.text(text));

function stateOf(...blocks: ReturnType<typeof paragraph>[]) {
  const plugin = mermaidPlugin();
  const state = EditorState.create({
    doc: schema.nodes.doc!.create(null, blocks),
    plugins: [plugin],
  });
  const widgets = (at: EditorState) =>
    (plugin.getState(at) as DecorationSet)
      .find()
      .map((decoration) => [decoration.from, (decoration.spec as { key: string }).key]);
  return { state, widgets };
}

describe('mermaidPlugin', () => {
  const graph = 'graph TD; A-->B';
  it('draws a diagram after each mermaid block and moves it with the text typed before it', () => {
    const { state, widgets } = stateOf(
      paragraph('Intro'),
      code('mermaid', graph),
      paragraph('End'),
    );
    const after = 7 + graph.length + 2;
    expect(widgets(state)).toEqual([[after, `mermaid:${graph}`]]);
    const typed = state.apply(state.tr.insertText('More ', 1));
    expect(widgets(typed)).toEqual([[after + 5, `mermaid:${graph}`]]);
  });

  it('draws again when the code changes, and drops the diagram with its block', () => {
    const { state, widgets } = stateOf(
      paragraph('Intro'),
      code('mermaid', graph),
      paragraph('End'),
    );
    const edited = state.apply(state.tr.insertText('-->C', 7 + graph.length + 1));
    expect(widgets(edited).map(([, key]) => key)).toEqual([`mermaid:${graph}-->C`]);
    const block = edited.doc.child(1);
    const removed = edited.apply(edited.tr.delete(7, 7 + block.nodeSize));
    expect(widgets(removed)).toEqual([]);
  });

  it('draws a code block that becomes mermaid, and none for other languages', () => {
    const { state, widgets } = stateOf(paragraph('Intro'), code('js', graph));
    expect(widgets(state)).toEqual([]);
    const typed = state.apply(state.tr.insertText('x', 8));
    expect(widgets(typed)).toEqual([]);
    const turned = typed.apply(typed.tr.setNodeMarkup(7, undefined, { language: 'mermaid' }));
    expect(widgets(turned).map(([, key]) => key)).toEqual([`mermaid:x${graph}`]);
  });
});
