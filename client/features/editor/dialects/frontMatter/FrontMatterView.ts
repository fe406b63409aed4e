import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { EditorView, NodeView } from '@tiptap/pm/view';
import type { renderProperties } from './PropertiesPanel.ts';
import './frontMatter.css';

type Panel = { renderProperties: typeof renderProperties };
let panel: Promise<Panel> | undefined;

/** The panel and its YAML library, loaded when the first document with front matter opens. */
function loadPanel(): Promise<Panel> {
  panel ??= import('./PropertiesPanel.ts');
  return panel;
}

/**
 * Front matter shown as a Properties panel above the document. Until the YAML library has
 * loaded, the source is shown as it is. Every change goes through the node's `yaml` attribute,
 * so undo, the shared document and export see it as any other edit.
 */
export class FrontMatterView implements NodeView {
  readonly dom: HTMLElement;
  private readonly body: HTMLElement;
  private node: ProseMirrorNode;
  private showSource = false;
  private version = 0;

  constructor(
    node: ProseMirrorNode,
    private readonly view: EditorView,
    private readonly getPos: () => number | undefined,
  ) {
    this.node = node;
    this.dom = document.createElement('section');
    this.dom.className = 'ink-properties';
    this.dom.contentEditable = 'false';
    this.dom.setAttribute('aria-label', 'Properties');
    this.dom.setAttribute('data-front-matter', '');
    const heading = document.createElement('h2');
    heading.className = 'ink-properties__heading';
    heading.textContent = 'Properties';
    this.body = document.createElement('div');
    this.body.className = 'ink-properties__body';
    this.dom.append(heading, this.body);
    this.render();
  }

  private get yaml(): string {
    return String(this.node.attrs.yaml ?? '');
  }

  private render(): void {
    const version = ++this.version;
    const pre = document.createElement('pre');
    pre.className = 'ink-properties__raw';
    pre.textContent = this.yaml;
    this.body.replaceChildren(pre);
    void loadPanel().then(({ renderProperties }) => {
      if (version !== this.version) return;
      renderProperties(this.body, {
        yaml: this.yaml,
        commit: (yaml) => this.commit(yaml),
        showSource: this.showSource,
        onShowSource: (show) => {
          this.showSource = show;
          this.render();
        },
        removeAll: () => this.remove(),
      });
    });
  }

  private commit(yaml: string): void {
    const pos = this.getPos();
    if (pos === undefined || yaml === this.yaml) return;
    this.view.dispatch(
      this.view.state.tr.setNodeMarkup(pos, undefined, { ...this.node.attrs, yaml }),
    );
  }

  private remove(): void {
    const pos = this.getPos();
    if (pos === undefined) return;
    this.view.dispatch(this.view.state.tr.delete(pos, pos + this.node.nodeSize));
  }

  update(node: ProseMirrorNode): boolean {
    if (node.type !== this.node.type) return false;
    const changed = node.attrs.yaml !== this.node.attrs.yaml;
    this.node = node;
    if (changed) this.render();
    return true;
  }

  /** The panel's fields handle their own typing and clicks. */
  stopEvent(): boolean {
    return true;
  }

  ignoreMutation(): boolean {
    return true;
  }
}
