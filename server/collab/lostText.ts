import * as Y from 'yjs';

/** Any shared type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Yjs types its events as any
type YType = Y.AbstractType<any>;

/** Paragraphs of text to put back at a top-level index of the document. */
export interface LostText {
  index: number;
  paragraphs: string[];
}

/** Clock ranges of one client, sorted: [start, end). */
type Ranges = [number, number][];

/** The clock ranges an update itself deletes, per client. */
function ownDeletions(update: Uint8Array): Map<number, Ranges> {
  const own = new Map<number, Ranges>();
  for (const [client, items] of Y.decodeUpdate(update).ds.clients) {
    own.set(
      client,
      items.map((item): [number, number] => [item.clock, item.clock + item.len]).sort(byStart),
    );
  }
  return own;
}

const byStart = (a: [number, number], b: [number, number]) => a[0] - b[0];

/** The parts of [from, to) that `ranges` (sorted, not overlapping) do not cover. */
function uncovered(ranges: Ranges = [], from: number, to: number): Ranges {
  const left: Ranges = [];
  // The first range ending after `from`, found by halving: a restore's list runs to thousands.
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ranges[middle]![1] <= from) low = middle + 1;
    else high = middle;
  }
  let at = from;
  for (let index = low; index < ranges.length; index++) {
    const [start, end] = ranges[index]!;
    if (end <= at) continue;
    if (start >= to) break;
    if (start > at) left.push([at, start]);
    at = Math.max(at, end);
    if (at >= to) break;
  }
  if (at < to) left.push([at, to]);
  return left;
}

/** The top-level item of the fragment that holds `type`, or null when it is not under it. */
function topItemOf(type: YType, fragment: Y.XmlFragment): Y.Item | null {
  let item = type._item;
  while (item && item.parent !== fragment) item = (item.parent as YType)._item;
  return item;
}

/**
 * The text types under a top-level item, in document order, deleted ones included. A stack of
 * its own: what a client typed into a deleted block may nest deeper than recursion could go.
 */
function textsUnder(top: Y.Item): Y.XmlText[] {
  const texts: Y.XmlText[] = [];
  const stack: YType[] = top.content instanceof Y.ContentType ? [top.content.type as YType] : [];
  while (stack.length > 0) {
    const type = stack.pop()!;
    if (type instanceof Y.XmlText) {
      texts.push(type);
      continue;
    }
    const children: YType[] = [];
    for (let item = type._start; item; item = item.right) {
      if (item.content instanceof Y.ContentType) children.push(item.content.type as YType);
    }
    // Reversed onto the stack, so that the first child is visited first.
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
  }
  return texts;
}

/**
 * Text that `transaction`, applying `update`, deleted without the update deleting it: text one
 * writer typed into a block that another writer, who had not seen it, deleted at the same moment
 * (a restore, a cut, an undo). Yjs deletes a deleted block's content with it, whichever arrives
 * first: typing that reaches a block already deleted is deleted on arrival, and a deletion that
 * reaches a block holding typing its writer never saw deletes that too. A writer's deletion
 * names every item it saw (Yjs lists each child it deleted), so what the transaction deleted
 * beyond the update's own list is what nobody chose to delete. It is given back as paragraphs
 * where its block was, as a document edited by operations keeps typing inside a deleted range
 * (docs/PRODUCT.md "Version history").
 */
export function lostText(
  doc: Y.Doc,
  fragment: Y.XmlFragment,
  update: Uint8Array,
  transaction: Y.Transaction,
): LostText[] {
  const own = ownDeletions(update);
  /** Per text type, the clock ranges of its lost characters. */
  const lost = new Map<Y.XmlText, Map<Y.Item, Ranges>>();
  for (const [client, deletions] of transaction.deleteSet.clients) {
    const structs = doc.store.clients.get(client);
    if (!structs) continue;
    for (const { clock, len } of deletions) {
      for (const [from, to] of uncovered(own.get(client), clock, clock + len)) {
        let index = Y.findIndexSS(structs, from);
        for (; index < structs.length; index++) {
          const struct = structs[index]!;
          if (struct.id.clock >= to) break;
          if (!(struct instanceof Y.Item) || !(struct.content instanceof Y.ContentString)) continue;
          const parent = struct.parent;
          if (!(parent instanceof Y.XmlText)) continue;
          const start = Math.max(from, struct.id.clock);
          const end = Math.min(to, struct.id.clock + struct.length);
          const items = lost.get(parent) ?? new Map<Y.Item, Ranges>();
          items.set(struct, [...(items.get(struct) ?? []), [start, end]]);
          lost.set(parent, items);
        }
      }
    }
  }
  if (lost.size === 0) return [];

  /** The lost text of each text type, in the order of its characters. */
  const textOf = (text: Y.XmlText) => {
    const items = lost.get(text);
    if (!items) return '';
    let found = '';
    for (let item = text._start; item; item = item.right) {
      const ranges = items.get(item);
      if (!ranges || !(item.content instanceof Y.ContentString)) continue;
      for (const [start, end] of ranges.sort(byStart)) {
        found += item.content.str.slice(start - item.id.clock, end - item.id.clock);
      }
    }
    return found;
  };

  const tops = new Set<Y.Item>();
  for (const text of lost.keys()) {
    const top = topItemOf(text, fragment);
    if (top) tops.add(top);
  }
  const found: LostText[] = [];
  let index = 0;
  for (let item = fragment._start; item; item = item.right) {
    const alive = !item.deleted && item.countable;
    if (tops.has(item)) {
      const paragraphs = textsUnder(item)
        .map(textOf)
        .filter((text) => text.trim() !== '');
      if (paragraphs.length > 0) found.push({ index: index + (alive ? 1 : 0), paragraphs });
    }
    if (alive) index += item.length;
  }
  return found;
}

/** Puts `lost` back into `fragment` as paragraphs, the later places first. */
export function putBack(fragment: Y.XmlFragment, lost: readonly LostText[]): void {
  for (const { index, paragraphs } of [...lost].reverse()) {
    fragment.insert(
      index,
      paragraphs.map((text) => {
        const paragraph = new Y.XmlElement('paragraph');
        paragraph.insert(0, [new Y.XmlText(text)]);
        return paragraph;
      }),
    );
  }
}
