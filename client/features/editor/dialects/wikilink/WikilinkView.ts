import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { NodeView } from '@tiptap/pm/view';
import {
  wikilinkLabel,
  wikilinkParts,
} from '../../../../../common/editor/dialects/wikilink/wikilinkSyntax.ts';
import { isAttachment } from '../../../../../common/editor/dialects/wikilink/wikilinkTarget.ts';
import type { LinkResolver } from './LinkResolver.ts';
import './wikilink.css';

/** How a wikilink looks: it finds a document, finds none, is not known yet, or names a file. */
export type WikilinkState = 'resolved' | 'unresolved' | 'pending' | 'file';

/**
 * A wikilink drawn as a chip that shows its alias or title: solid when it finds one of the
 * writer's documents, dimmed and dashed when it finds none (a click offers to create it). An
 * embedded file (`![[image.png]]`) is kept as written and shown as not yet available.
 */
export class WikilinkView implements NodeView {
  readonly dom: HTMLElement;
  private node: ProseMirrorNode;
  private readonly stop: () => void;

  constructor(
    node: ProseMirrorNode,
    private readonly resolver: LinkResolver,
  ) {
    this.node = node;
    this.dom = document.createElement('span');
    this.dom.className = 'ink-wikilink';
    this.dom.setAttribute('role', 'link');
    this.dom.contentEditable = 'false';
    this.stop = resolver.subscribe(() => this.render());
    this.render();
  }

  update(node: ProseMirrorNode): boolean {
    if (node.type !== this.node.type) return false;
    this.node = node;
    this.render();
    return true;
  }

  ignoreMutation(): boolean {
    return true;
  }

  destroy(): void {
    this.stop();
  }

  private render(): void {
    const parts = wikilinkParts(this.node.attrs);
    const label = wikilinkLabel(parts) || parts.target;
    const target = parts.target.trim();
    let state: WikilinkState;
    let title: string;
    if (isAttachment(target)) {
      state = 'file';
      title = `“${target}” is kept as written; attachments are not available yet.`;
    } else if (target === '') {
      state = 'resolved';
      title = 'Go to this heading';
    } else {
      const found = this.resolver.lookup(target);
      state = found === undefined ? 'pending' : found ? 'resolved' : 'unresolved';
      title = found
        ? `Open “${found.title}”`
        : `“${target}” does not exist yet: click to create it`;
    }
    this.dom.dataset.state = state;
    this.dom.classList.toggle('ink-wikilink--embed', parts.embed);
    this.dom.title = title;
    this.dom.textContent = state === 'file' && parts.embed ? `${label} · not available yet` : label;
  }
}
