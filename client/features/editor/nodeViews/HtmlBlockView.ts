import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { NodeView } from '@tiptap/pm/view';
import { isOnlyComments } from './inlineHtmlKind.ts';
import { guardLinks, renderSanitized, sourceChip } from './renderHtml.ts';

/**
 * A raw HTML block shown rendered (sanitised again) in a non-editable box, with an "HTML" label
 * on hover. A block of comments only shows a small comment marker.
 */
export class HtmlBlockView implements NodeView {
  readonly dom: HTMLElement;
  private readonly content: HTMLElement;
  private node: ProseMirrorNode;
  private version = 0;

  constructor(node: ProseMirrorNode) {
    this.node = node;
    this.dom = document.createElement('div');
    this.dom.className = 'ink-html-block';
    this.dom.setAttribute('data-html-block', '');
    const label = document.createElement('span');
    label.className = 'ink-html-block__label';
    label.setAttribute('aria-hidden', 'true');
    label.textContent = 'HTML';
    this.content = document.createElement('div');
    this.content.className = 'ink-html-block__content';
    this.dom.append(label, this.content);
    guardLinks(this.dom);
    this.render();
  }

  private render(): void {
    const html = String(this.node.attrs.html ?? '');
    const version = ++this.version;
    this.dom.classList.remove('ink-html-block--comment', 'ink-html-block--empty');
    if (isOnlyComments(html)) {
      this.dom.classList.add('ink-html-block--comment');
      this.dom.title = html.trim();
      this.content.replaceChildren(sourceChip('<!-- -->', 'ink-html-comment'));
      return;
    }
    this.dom.removeAttribute('title');
    renderSanitized(
      this.content,
      html,
      () => version === this.version,
      (visible) => {
        if (visible) return;
        // Nothing visible survived sanitising: show the source so the block can be found.
        this.dom.classList.add('ink-html-block--empty');
        this.content.replaceChildren(sourceChip(html.trim(), 'ink-html-chip'));
      },
    );
  }

  update(node: ProseMirrorNode): boolean {
    if (node.type !== this.node.type) return false;
    const changed = node.attrs.html !== this.node.attrs.html;
    this.node = node;
    if (changed) this.render();
    return true;
  }

  /** The rendered HTML may change itself (a `<details>` opening); that is not an edit. */
  ignoreMutation(): boolean {
    return true;
  }
}
