import type { Node as ProseMirrorNode, ResolvedPos } from '@tiptap/pm/model';
import type * as Y from 'yjs';
import type { ChunkedYBinding } from './ChunkedYBinding.ts';
import { blockElement } from './positions.ts';

/** How many blocks are remembered: the caret's, and those of a few other writers. */
const REMEMBERED = 4;

/**
 * The fragment's element of an editor block, remembered for the blocks last written, rewritten
 * or looked up: most often the caret's, whose element is then found without walking the fragment
 * from its start (Y.XmlFragment keeps no index of its children) on every keystroke.
 */
export class BlockElements {
  /** Element to the block it holds, the most recent last. */
  private readonly known = new Map<Y.XmlElement, ProseMirrorNode>();

  constructor(private readonly binding: ChunkedYBinding) {}

  /** `element` now holds `node` (written, or rewritten from a remote change). */
  remember(node: ProseMirrorNode, element: Y.XmlElement): void {
    this.known.delete(element);
    this.known.set(element, node);
    if (this.known.size > REMEMBERED) {
      const oldest = this.known.keys().next().value;
      if (oldest) this.known.delete(oldest);
    }
  }

  /** The top-level element of the block at `$pos` (depth 2 or more). */
  of($pos: ResolvedPos): Y.XmlElement | null {
    const node = $pos.node(2);
    for (const [element, known] of this.known) {
      if (
        known === node &&
        this.binding.meta.mapping.get(element) === node &&
        !element._item?.deleted
      ) {
        return element;
      }
    }
    const element = blockElement(this.binding, $pos);
    if (element) this.remember(node, element);
    return element;
  }
}
