import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { NodeView } from '@tiptap/pm/view';
import {
  wikilinkLabel,
  wikilinkParts,
} from '../../../../../common/editor/dialects/wikilink/wikilinkSyntax.ts';
import { isAttachment } from '../../../../../common/editor/dialects/wikilink/wikilinkTarget.ts';
import { isFileUrl } from '../../../../../common/api/fileUrl.ts';
import type { LinkResolver } from './LinkResolver.ts';
import './wikilink.css';

/**
 * How a wikilink looks: it finds a document, finds none, is not known yet, names a file, or is
 * an embed showing its uploaded image.
 */
export type WikilinkState = 'resolved' | 'unresolved' | 'pending' | 'file' | 'image';

/** The size Obsidian reads from an image embed's alias: `|300` (width) or `|300x200`. */
export function embedSize(alias: string | null): { width?: number; height?: number } {
  const match = /^\s*(\d{1,5})(?:\s*x\s*(\d{1,5}))?\s*$/.exec(alias ?? '');
  if (!match) return {};
  const width = Number(match[1]);
  const height = match[2] === undefined ? undefined : Number(match[2]);
  return height === undefined ? { width } : { width, height };
}

/**
 * A wikilink drawn as a chip that shows its alias or title: solid when it finds one of the
 * writer's documents, dimmed and dashed when it finds none (a click offers to create it). An
 * image embed (`![[diagram.png]]`) whose file came with its vault shows the image; any other
 * embedded file is kept as written and shown as not yet available.
 */
export class WikilinkView implements NodeView {
  readonly dom: HTMLElement;
  private node: ProseMirrorNode;
  /** The image an embed shows, kept while its address stays (the resolver renders often). */
  private image: HTMLImageElement | null = null;
  /** The address whose image failed to load (deleted, or someone else's): shown as a chip. */
  private failed: string | null = null;
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
    const src: unknown = this.node.attrs.src;
    if (parts.embed && isFileUrl(src) && src !== this.failed) {
      this.renderImage(src, parts.target.trim(), parts.alias);
      return;
    }
    this.image = null;
    const label = wikilinkLabel(parts) || parts.target;
    const target = parts.target.trim();
    let state: WikilinkState;
    let title: string;
    const unloadable = parts.embed && src !== null && src === this.failed;
    if (unloadable) {
      state = 'file';
      title = `The image of “${target}” could not be loaded; the embed is kept as written.`;
    } else if (isAttachment(target)) {
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
    const note = unloadable ? 'could not be loaded' : 'not available yet';
    this.dom.textContent = state === 'file' && parts.embed ? `${label} · ${note}` : label;
  }

  private renderImage(src: string, target: string, alias: string | null): void {
    this.dom.dataset.state = 'image';
    this.dom.classList.add('ink-wikilink--embed');
    this.dom.title = target;
    if (this.image?.getAttribute('src') !== src) {
      const image = document.createElement('img');
      image.src = src;
      image.draggable = false;
      image.addEventListener('error', () => {
        if (this.image !== image) return;
        this.failed = src;
        this.render();
      });
      this.image = image;
      this.dom.replaceChildren(image);
    }
    const image = this.image;
    image.alt = target;
    const { width, height } = embedSize(alias);
    if (width === undefined) image.removeAttribute('width');
    else image.width = width;
    if (height === undefined) image.removeAttribute('height');
    else image.height = height;
  }
}
