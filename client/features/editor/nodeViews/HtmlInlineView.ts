import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { NodeView } from '@tiptap/pm/view';
import { inlineHtmlKind } from './inlineHtmlKind.ts';
import { guardLinks, renderSanitized, sourceChip } from './renderHtml.ts';

/**
 * Inline raw HTML: a lone tag such as `<sup>` as a small monospace chip, a comment as a tiny
 * marker, and `<br>`, `<img>` or a complete element rendered (sanitised again).
 */
export class HtmlInlineView implements NodeView {
  readonly dom: HTMLElement;
  private node: ProseMirrorNode;
  private version = 0;

  constructor(node: ProseMirrorNode) {
    this.node = node;
    this.dom = document.createElement('span');
    this.dom.setAttribute('data-html-inline', '');
    guardLinks(this.dom);
    this.render();
  }

  private render(): void {
    const html = String(this.node.attrs.html ?? '');
    const version = ++this.version;
    const kind = inlineHtmlKind(html);
    this.dom.className = `ink-html-inline ink-html-inline--${kind}`;
    this.dom.removeAttribute('title');
    if (kind === 'comment') {
      this.dom.title = html.trim();
      this.dom.setAttribute('aria-label', 'HTML comment');
      this.dom.replaceChildren();
      return;
    }
    this.dom.removeAttribute('aria-label');
    if (kind === 'tag') {
      this.dom.replaceChildren(sourceChip(html.trim(), 'ink-html-chip'));
      return;
    }
    renderSanitized(
      this.dom,
      html,
      () => version === this.version,
      (visible) => {
        if (!visible) this.dom.replaceChildren(sourceChip(html.trim(), 'ink-html-chip'));
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

  ignoreMutation(): boolean {
    return true;
  }
}
