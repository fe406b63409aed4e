import * as Y from 'yjs';
import {
  wikilinkParts,
  type WikilinkParts,
} from '../../common/editor/dialects/wikilink/wikilinkSyntax.ts';

/** The node (and Y.XmlElement) name of wikilinks and embeds alike (WikilinkNode.ts). */
const WIKILINK = 'wikilink';

/**
 * Sets the `target` of each wikilink and embed in a live document's fragment to what `rename`
 * gives for its parts (null: leave it), and returns how many it set. Only that attribute is
 * written: the text around, the link's other parts and its carried marks (inlineMarks.ts) are
 * left as they are, so what editors typed since the last store stays. Run it inside the
 * transaction of a server change (CollabEngine.change).
 */
export function renameWikilinkTargets(
  fragment: Y.XmlFragment,
  rename: (parts: WikilinkParts) => string | null,
): number {
  // Collected first, as the walk should not see the tree it writes; the walker is iterative, so
  // nesting depth costs no stack.
  const links: Y.XmlElement[] = [];
  for (const node of fragment.createTreeWalker(
    (type) => type instanceof Y.XmlElement && type.nodeName === WIKILINK,
  )) {
    if (node instanceof Y.XmlElement) links.push(node);
  }
  let renamed = 0;
  for (const link of links) {
    const parts = wikilinkParts(link.getAttributes());
    const next = rename(parts);
    if (next === null || next === parts.target) continue;
    link.setAttribute('target', next);
    renamed += 1;
  }
  return renamed;
}
