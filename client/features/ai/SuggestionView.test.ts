// @vitest-environment jsdom
import { DOMSerializer, type Node as ProseMirrorNode } from '@tiptap/pm/model';
import { describe, expect, it, vi } from 'vitest';
import { inkwellSchema } from '../../../common/editor/extensions.ts';
import { parseMarkdownFragment } from '../../../common/editor/markdown/parseMarkdown.ts';
import { SuggestionView } from './SuggestionView.ts';

const schema = inkwellSchema();
const serializer = DOMSerializer.fromSchema(schema);

function blocksOf(markdown: string): ProseMirrorNode[] {
  const blocks: ProseMirrorNode[] = [];
  // As the AI session reads an answer (runAiCommand.ts).
  parseMarkdownFragment(markdown, schema).forEach((block) => blocks.push(block));
  return blocks;
}

function newView(): { view: SuggestionView; content: Element } {
  const actions = {
    stop: vi.fn(),
    accept: vi.fn(),
    discard: vi.fn(),
    retry: vi.fn(),
    flip: vi.fn(),
  };
  const view = new SuggestionView(actions, { primary: 'replace', both: true });
  const content = view.dom.querySelector('.ink-ai-suggestion__content');
  if (!content) throw new Error('the suggestion has no content element');
  return { view, content };
}

describe('SuggestionView', () => {
  it('keeps the elements of the blocks a growing answer did not change', () => {
    const { view, content } = newView();
    const draw = vi.fn((block: ProseMirrorNode) => serializer.serializeNode(block));
    view.setBlocks(blocksOf('# Title\n\nFirst paragraph.\n\nSec'), draw);
    const [heading, first] = [...content.children];
    expect(draw).toHaveBeenCalledTimes(3);

    draw.mockClear();
    view.setBlocks(blocksOf('# Title\n\nFirst paragraph.\n\nSecond, **bold**'), draw);
    expect(draw).toHaveBeenCalledTimes(1);
    expect(content.children[0]).toBe(heading);
    expect(content.children[1]).toBe(first);
    expect(content.children).toHaveLength(3);
    expect(content.children[2]?.innerHTML).toBe('Second, <strong>bold</strong>');
  });

  it('redraws from the first block whose meaning changed, and drops blocks that went', () => {
    const { view, content } = newView();
    const draw = (block: ProseMirrorNode) => serializer.serializeNode(block);
    view.setBlocks(blocksOf('Intro\n\nItem one\n\nItem two'), draw);
    const intro = content.children[0];
    // The same lines, now a list: every block after the first is different.
    view.setBlocks(blocksOf('Intro\n\n- Item one'), draw);
    expect(content.children[0]).toBe(intro);
    expect([...content.children].map((child) => child.tagName)).toEqual(['P', 'UL']);
  });

  it('replaces plain fallback text with blocks, and blocks with fallback text', () => {
    const { view, content } = newView();
    view.setContent(document.createTextNode('**half'));
    view.setBlocks(blocksOf('**half** done'), (block) => serializer.serializeNode(block));
    expect(content.innerHTML).toBe('<p><strong>half</strong> done</p>');
    view.setContent(document.createTextNode('plain'));
    expect(content.innerHTML).toBe('plain');
    view.setBlocks(blocksOf('**half** done'), (block) => serializer.serializeNode(block));
    expect(content.innerHTML).toBe('<p><strong>half</strong> done</p>');
  });
});
