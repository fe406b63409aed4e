// @vitest-environment jsdom
import { EditorState } from '@tiptap/pm/state';
import { EditorView } from '@tiptap/pm/view';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inkwellSchema } from '../../../../../common/editor/extensions.ts';
import { mermaidPlugin } from './mermaidPlugin.ts';

const drawDiagram = vi.fn(async (figure: HTMLElement) => {
  figure.textContent = 'drawn';
});
vi.mock('./drawDiagram.ts', () => ({ drawDiagram }));

/** An IntersectionObserver the test moves: `near()` brings what it observes into view. */
class FakeObserver {
  static all: FakeObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  disconnect() {
    this.targets.clear();
  }
  near() {
    const entries = [...this.targets].map(
      (target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry,
    );
    if (entries.length > 0) this.callback(entries, this as unknown as IntersectionObserver);
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeObserver.all = [];
  drawDiagram.mockClear();
});

describe('mermaid diagrams', () => {
  it('are drawn only once they come near the viewport, mermaid not loaded before', async () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const schema = inkwellSchema();
    const doc = schema.nodes.doc!.create(null, [
      schema.nodes.paragraph!.create(null, schema.text('Intro')),
      schema.nodes.codeBlock!.create({ language: 'mermaid' }, schema.text('graph TD; A-->B')),
    ]);
    const view = new EditorView(document.createElement('div'), {
      state: EditorState.create({ doc, plugins: [mermaidPlugin()] }),
    });
    const figure = view.dom.querySelector('.ink-mermaid')!;
    expect(figure.textContent).toBe('Drawing the diagram…');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(drawDiagram).not.toHaveBeenCalled();

    FakeObserver.all.forEach((observer) => observer.near());
    await vi.waitFor(() => expect(drawDiagram).toHaveBeenCalledTimes(1));
    expect(figure.textContent).toBe('drawn');
    // Drawn once: coming near again draws nothing more.
    FakeObserver.all.forEach((observer) => observer.near());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(drawDiagram).toHaveBeenCalledTimes(1);
    view.destroy();
  });
});
