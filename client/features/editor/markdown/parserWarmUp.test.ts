import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseMarkdown } from '../../../../common/editor/markdown/parseMarkdown.ts';

/** A fresh copy of the module: it warms up once per page. */
async function freshWarmUp() {
  vi.resetModules();
  return import('./parserWarmUp.ts');
}

describe('the parser warm-up', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it('practises on what READMEs and notes are made of', async () => {
    const { warmUpMarkdown } = await freshWarmUp();
    const doc = parseMarkdown(warmUpMarkdown(3));
    const nodes = new Set<string>();
    const marks = new Set<string>();
    doc.descendants((node) => {
      nodes.add(node.type.name);
      for (const mark of node.marks) marks.add(mark.type.name);
    });
    // The parser's paths for each of these are compiled before the file comes: a sample that
    // stopped reaching one (a construct renamed, a line broken) leaves it cold.
    for (const name of [
      'heading',
      'paragraph',
      'codeBlock',
      'table',
      'tableHeader',
      'bulletList',
      'orderedList',
      'taskList',
      'blockquote',
      'callout',
      'htmlBlock',
      'htmlInline',
      'image',
      'inlineImage',
      'footnoteRef',
      'footnoteDefinition',
      'mathInline',
      'wikilink',
      'horizontalRule',
      'linkDefinitions',
    ]) {
      expect(nodes, name).toContain(name);
    }
    expect([...marks].sort()).toEqual(['bold', 'code', 'italic', 'link', 'strike']);
  });

  it('gives each section its own text', async () => {
    const { warmUpMarkdown } = await freshWarmUp();
    expect(warmUpMarkdown(1)).not.toBe(warmUpMarkdown(2));
  });

  it('stops once the import begins, and runs once per page', async () => {
    const { warmUpParser } = await freshWarmUp();
    let asked = 0;
    // The import begins after two sections.
    await warmUpParser(() => ++asked > 2);
    expect(asked).toBe(3);
    await warmUpParser(() => {
      asked++;
      return false;
    });
    expect(asked).toBe(3);
  });

  it('ends by itself within its budget of parsing', async () => {
    const { warmUpParser } = await freshWarmUp();
    let sections = 0;
    await warmUpParser(() => {
      sections++;
      return false;
    });
    // 400 ms of parsing: more than a handful of sections, and it ended without being told.
    expect(sections).toBeGreaterThan(5);
  });
});
