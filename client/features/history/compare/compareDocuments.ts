import type { JSONContent } from '@tiptap/core';
import { diffArrays, type ChangeObject } from 'diff';

/**
 * Compares two documents of the shared schema, as ProseMirror JSON (docs/PRODUCT.md "Version
 * history", comparing): the newer document with what the older one had and the newer lacks put
 * back where it was, and the changes, each a list of ranges to highlight in it. Blocks are
 * compared whole first (a changed paragraph among thousands costs one comparison of keys), then
 * the blocks changed in place are compared within: a container by its children, a paragraph or
 * heading by its words, and text whose words stayed but whose marks changed is "formatted".
 * A block removed in one place and found whole in another is "moved". Pure and schema-free (what
 * it needs from the schema is passed in), so that it runs in a worker.
 */

/** How a range changed from the older document to the newer. */
export type ChangeKind = 'inserted' | 'deleted' | 'formatted' | 'movedFrom' | 'movedTo';

/**
 * A range of the compared document that changed: in its top-level block `block`, from `from` to
 * `to`, ProseMirror positions counted from just before that block (0 is before its opening
 * token). `node` ranges cover a whole node (a block, a list item, an image), text ranges only
 * text.
 */
export interface ChangeRange {
  block: number;
  from: number;
  to: number;
  kind: ChangeKind;
  node: boolean;
}

/** One change to step through: one place where the newer document differs. */
export interface Change {
  kind: 'inserted' | 'deleted' | 'replaced' | 'formatted' | 'moved';
  ranges: ChangeRange[];
  /** Text it removed, shortened, for the list of changes. */
  removedText: string;
  /** Text it added (or moved, or formatted), shortened. */
  addedText: string;
}

/** What the comparison needs to know of the schema: which node types hold text, which nothing. */
export interface CompareSchema {
  /** Node types whose content is inline (paragraph, heading, code block). */
  textblocks: readonly string[];
  /** Node types that hold nothing and count one position (images, rules, hard breaks). */
  leaves: readonly string[];
  /**
   * By node or mark type, the attributes that only remember how a Markdown file wrote it: a
   * change to them is no change a reader sees.
   */
  sourceAttributes: Readonly<Record<string, readonly string[]>>;
}

export type Comparison =
  | {
      kind: 'compared';
      /** The newer document with what was removed put back, the older's marks on it. */
      doc: JSONContent;
      changes: Change[];
      /** Characters of text added and removed. */
      added: number;
      removed: number;
    }
  /** The two differ by more than can be compared in the time allowed. */
  | { kind: 'tooLarge' };

/** Options of {@link compareDocuments}. */
export interface CompareOptions {
  schema: CompareSchema;
  /** Most milliseconds the comparison may take before it answers `tooLarge`. */
  budgetMs?: number;
  /** The clock (tests pass one that runs out). */
  now?: () => number;
}

/** The comparison of a 1.2 MB document's versions must appear within a second (issue 24). */
const DEFAULT_BUDGET_MS = 2_000;
/** Blocks of one changed stretch paired at most by similarity; past it they are replaced. */
const MAX_ALIGN_CELLS = 40_000;
/** Two blocks sharing less than this share of their words are one removed and one added. */
const MIN_SIMILARITY = 0.25;
/** Longest excerpt a change keeps of its text. */
const EXCERPT = 120;

/** Compares `older` with `newer` (documents of the shared schema as JSON). */
export function compareDocuments(
  older: JSONContent,
  newer: JSONContent,
  options: CompareOptions,
): Comparison {
  const now = options.now ?? (() => performance.now());
  const comparer = new Comparer(
    options.schema,
    now() + (options.budgetMs ?? DEFAULT_BUDGET_MS),
    now,
  );
  try {
    return comparer.compare(older, newer);
  } catch (error) {
    if (error instanceof OutOfTime) return { kind: 'tooLarge' };
    throw error;
  }
}

class OutOfTime extends Error {}

interface Annotation {
  kind: ChangeKind;
  group: number;
}

/** One position of a textblock's content: a character of a text node, or an inline leaf. */
interface Unit {
  node: JSONContent;
  /** The character's index in the text node; 0 for a leaf. */
  offset: number;
}

/** A textblock's content as units, and its words (and spaces, and marks of punctuation). */
interface Flattened {
  units: Unit[];
  tokens: string[];
  /** Where each token starts among the units, and the units' count at the end. */
  starts: number[];
}

/** Words, runs of space, and any other single character. */
const TOKEN = /[\p{L}\p{N}\p{M}_]+|\s+|[^]/gu;

class Comparer {
  private readonly textblocks: ReadonlySet<string>;
  private readonly leaves: ReadonlySet<string>;
  /** Writes a node as its key: what a reader sees of it, its source attributes left out. */
  private readonly visible: (this: unknown, key: string, value: unknown) => unknown;
  private readonly annotations = new Map<JSONContent, Annotation>();
  private readonly keys = new WeakMap<JSONContent, string>();
  private readonly markKeys = new WeakMap<JSONContent, string>();
  /** Whole nodes removed and added, by key, to find the ones that moved. */
  private readonly wholeRemoved = new Map<string, JSONContent[]>();
  private readonly wholeAdded = new Map<string, JSONContent[]>();
  private groups = 0;

  constructor(
    schema: CompareSchema,
    private readonly deadline: number,
    private readonly now: () => number,
  ) {
    this.textblocks = new Set(schema.textblocks);
    this.leaves = new Set(schema.leaves);
    const source = new Map(
      Object.entries(schema.sourceAttributes).map(([type, names]) => [type, new Set(names)]),
    );
    this.visible = function (this: unknown, key, value) {
      if (key !== 'attrs' || value === null || typeof value !== 'object') return value;
      const hidden = source.get((this as JSONContent).type ?? '');
      if (!hidden) return value;
      return Object.fromEntries(Object.entries(value).filter(([name]) => !hidden.has(name)));
    };
  }

  compare(older: JSONContent, newer: JSONContent): Comparison {
    const content = this.mergeChildren(older.content ?? [], newer.content ?? []);
    this.findMoves();
    const doc: JSONContent = { ...newer, content };
    const changes = new Map<number, Change>();
    const totals = { added: 0, removed: 0 };
    content.forEach((block, index) => this.collect(block, index, 0, changes, totals, false));
    return { kind: 'compared', doc, changes: [...changes.values()], ...totals };
  }

  private checkTime(): void {
    if (this.now() > this.deadline) throw new OutOfTime();
  }

  private key(node: JSONContent): string {
    let key = this.keys.get(node);
    if (key === undefined) {
      key = JSON.stringify(node, this.visible);
      this.keys.set(node, key);
    }
    return key;
  }

  private marksKey(node: JSONContent): string {
    let key = this.markKeys.get(node);
    if (key === undefined) {
      key = JSON.stringify(node.marks ?? [], this.visible);
      this.markKeys.set(node, key);
    }
    return key;
  }

  private nextGroup(): number {
    return this.groups++;
  }

  private mark<T extends JSONContent>(node: T, kind: ChangeKind, group: number): T {
    this.annotations.set(node, { kind, group });
    if ((kind === 'deleted' || kind === 'inserted') && node.type !== 'text') {
      // Only nodes with text to recognise: two empty paragraphs did not move.
      if (textOf(node).trim()) {
        const whole = kind === 'deleted' ? this.wholeRemoved : this.wholeAdded;
        const key = this.key(node);
        const list = whole.get(key);
        if (list) list.push(node);
        else whole.set(key, [node]);
      }
    }
    return node;
  }

  /** Ids of equal keys are equal numbers, which the diff compares fastest. */
  private diff(older: string[], newer: string[]): ChangeObject<number[]>[] {
    const ids = new Map<string, number>();
    const id = (key: string) => {
      let value = ids.get(key);
      if (value === undefined) {
        value = ids.size;
        ids.set(key, value);
      }
      return value;
    };
    const timeout = this.deadline - this.now();
    if (timeout <= 0) throw new OutOfTime();
    const parts = diffArrays(older.map(id), newer.map(id), { timeout });
    if (!parts) throw new OutOfTime();
    return parts;
  }

  /** The children of two nodes compared: equal ones kept, changed stretches merged. */
  private mergeChildren(older: JSONContent[], newer: JSONContent[]): JSONContent[] {
    this.checkTime();
    const parts = this.diff(
      older.map((node) => this.key(node)),
      newer.map((node) => this.key(node)),
    );
    const merged: JSONContent[] = [];
    let removed: JSONContent[] = [];
    let added: JSONContent[] = [];
    let i = 0;
    let j = 0;
    for (const part of parts) {
      const count = part.count;
      if (part.removed) {
        removed.push(...older.slice(i, i + count));
        i += count;
      } else if (part.added) {
        added.push(...newer.slice(j, j + count));
        j += count;
      } else {
        this.mergeStretch(removed, added, merged);
        removed = [];
        added = [];
        merged.push(...newer.slice(j, j + count));
        i += count;
        j += count;
      }
    }
    this.mergeStretch(removed, added, merged);
    return merged;
  }

  /**
   * A stretch where the older had `removed` and the newer has `added`: blocks that are alike
   * (the same type, sharing words) are compared within, the others removed and added.
   */
  private mergeStretch(removed: JSONContent[], added: JSONContent[], into: JSONContent[]): void {
    if (removed.length === 0 && added.length === 0) return;
    let group = this.nextGroup();
    let r = 0;
    let a = 0;
    for (const [pairedR, pairedA] of this.align(removed, added)) {
      for (; r < pairedR; r++) into.push(this.mark(removed[r]!, 'deleted', group));
      for (; a < pairedA; a++) into.push(this.mark(added[a]!, 'inserted', group));
      into.push(...this.mergePair(removed[r++]!, added[a++]!));
      group = this.nextGroup();
    }
    for (; r < removed.length; r++) into.push(this.mark(removed[r]!, 'deleted', group));
    for (; a < added.length; a++) into.push(this.mark(added[a]!, 'inserted', group));
  }

  private canPair(older: JSONContent, newer: JSONContent): boolean {
    const bothText = this.isTextblock(older) && this.isTextblock(newer);
    return bothText || (older.type === newer.type && !this.leaves.has(older.type ?? ''));
  }

  private sameAttrs(older: JSONContent, newer: JSONContent): boolean {
    const attrs = (node: JSONContent) =>
      JSON.stringify({ type: node.type, attrs: node.attrs ?? {} }, this.visible);
    return attrs(older) === attrs(newer);
  }

  private isTextblock(node: JSONContent): boolean {
    return this.textblocks.has(node.type ?? '');
  }

  /**
   * Which removed block became which added one: the pairs, in order, that share the most words
   * (a longest common subsequence weighted by likeness). Too large a stretch pairs nothing.
   */
  private align(removed: JSONContent[], added: JSONContent[]): [number, number][] {
    const rows = removed.length;
    const columns = added.length;
    if (rows === 0 || columns === 0 || rows * columns > MAX_ALIGN_CELLS) return [];
    this.checkTime();
    const words = (nodes: JSONContent[]) => nodes.map((node) => new Set(textOf(node).match(TOKEN)));
    const removedWords = words(removed);
    const addedWords = words(added);
    const likeness = (r: number, a: number): number => {
      if (!this.canPair(removed[r]!, added[a]!)) return 0;
      const x = removedWords[r]!;
      const y = addedWords[a]!;
      // Two empty paragraphs, or a container whose text is the same: alike.
      if (x.size === 0 && y.size === 0) return 1;
      let shared = 0;
      for (const word of x) if (y.has(word)) shared++;
      const similarity = shared / (x.size + y.size - shared);
      return similarity >= MIN_SIMILARITY ? similarity : 0;
    };
    // best[r][a]: the most likeness pairing removed[r..] with added[a..] can reach.
    const best = Array.from({ length: rows + 1 }, () => new Float64Array(columns + 1));
    const like = Array.from({ length: rows }, () => new Float64Array(columns));
    for (let r = rows - 1; r >= 0; r--) {
      for (let a = columns - 1; a >= 0; a--) {
        const value = likeness(r, a);
        like[r]![a] = value;
        const pair = value > 0 ? value + best[r + 1]![a + 1]! : 0;
        best[r]![a] = Math.max(pair, best[r + 1]![a]!, best[r]![a + 1]!);
      }
    }
    const pairs: [number, number][] = [];
    let r = 0;
    let a = 0;
    while (r < rows && a < columns) {
      const value = like[r]![a]!;
      if (value > 0 && best[r]![a] === value + best[r + 1]![a + 1]!) {
        pairs.push([r++, a++]);
      } else if (best[r + 1]![a] === best[r]![a]) {
        r++;
      } else {
        a++;
      }
    }
    return pairs;
  }

  /** Two alike blocks merged: their text compared word by word, or their children compared. */
  private mergePair(older: JSONContent, newer: JSONContent): JSONContent[] {
    const restyled = older.type !== newer.type || !this.sameAttrs(older, newer);
    if (this.isTextblock(older) && this.isTextblock(newer)) {
      const content = this.mergeInline(older.content ?? [], newer.content ?? []);
      const node: JSONContent = { ...newer, content };
      if (content.length === 0) delete node.content;
      return [restyled ? this.mark(node, 'formatted', this.nextGroup()) : node];
    }
    if (older.type === newer.type && !this.leaves.has(older.type ?? '')) {
      const group = restyled ? this.nextGroup() : -1;
      const node: JSONContent = {
        ...newer,
        content: this.mergeChildren(older.content ?? [], newer.content ?? []),
      };
      return [restyled ? this.mark(node, 'formatted', group) : node];
    }
    const group = this.nextGroup();
    return [this.mark(older, 'deleted', group), this.mark(newer, 'inserted', group)];
  }

  /** A textblock's content compared word by word; kept words whose marks changed are formatted. */
  private mergeInline(older: JSONContent[], newer: JSONContent[]): JSONContent[] {
    this.checkTime();
    const a = this.flatten(older);
    const b = this.flatten(newer);
    const merged: JSONContent[] = [];
    let group = -1;
    const groupOf = () => (group < 0 ? (group = this.nextGroup()) : group);
    let i = 0;
    let j = 0;
    for (const part of this.diff(a.tokens, b.tokens)) {
      const count = part.count;
      if (part.removed) {
        emit(a.units, a.starts[i]!, a.starts[i + count]!, merged, (node) =>
          this.mark(node, 'deleted', groupOf()),
        );
        i += count;
      } else if (part.added) {
        emit(b.units, b.starts[j]!, b.starts[j + count]!, merged, (node) =>
          this.mark(node, 'inserted', groupOf()),
        );
        j += count;
      } else {
        group = -1;
        this.mergeKept(
          a,
          b,
          a.starts[i]!,
          b.starts[j]!,
          b.starts[j + count]! - b.starts[j]!,
          merged,
        );
        i += count;
        j += count;
      }
    }
    return merged;
  }

  /** Kept text, split where its marks changed (formatted) from where they did not. */
  private mergeKept(
    a: Flattened,
    b: Flattened,
    fromA: number,
    fromB: number,
    length: number,
    into: JSONContent[],
  ): void {
    let start = 0;
    const sameAt = (k: number) =>
      this.marksKey(a.units[fromA + k]!.node) === this.marksKey(b.units[fromB + k]!.node);
    while (start < length) {
      const same = sameAt(start);
      let end = start + 1;
      while (end < length && sameAt(end) === same) end++;
      if (same) {
        emit(b.units, fromB + start, fromB + end, into, (node) => node);
      } else {
        const group = this.nextGroup();
        emit(b.units, fromB + start, fromB + end, into, (node) =>
          this.mark(node, 'formatted', group),
        );
      }
      start = end;
    }
  }

  private flatten(content: JSONContent[]): Flattened {
    const units: Unit[] = [];
    const tokens: string[] = [];
    const starts: number[] = [];
    for (const node of content) {
      if (node.type === 'text' && typeof node.text === 'string') {
        for (const match of node.text.matchAll(TOKEN)) {
          starts.push(units.length);
          tokens.push(match[0]);
          for (let k = 0; k < match[0].length; k++) {
            units.push({ node, offset: match.index + k });
          }
        }
      } else {
        starts.push(units.length);
        // An inline node is one token, equal to the same node wherever its marks are.
        tokens.push(`\u0000${JSON.stringify({ ...node, marks: undefined }, this.visible)}`);
        units.push({ node, offset: 0 });
      }
    }
    starts.push(units.length);
    return { units, tokens, starts };
  }

  /** Blocks removed whole in one place and added whole in another moved. */
  private findMoves(): void {
    for (const [key, removed] of this.wholeRemoved) {
      const added = this.wholeAdded.get(key);
      if (!added) continue;
      for (let k = 0; k < Math.min(removed.length, added.length); k++) {
        const group = this.nextGroup();
        this.annotations.set(removed[k]!, { kind: 'movedFrom', group });
        this.annotations.set(added[k]!, { kind: 'movedTo', group });
      }
    }
  }

  /**
   * Walks `node` (at `offset` in top-level block `block`), adding its changed ranges to their
   * changes; answers its size in positions. Inside a node added or removed whole, nothing more
   * is recorded.
   */
  private collect(
    node: JSONContent,
    block: number,
    offset: number,
    changes: Map<number, Change>,
    totals: { added: number; removed: number },
    inWhole: boolean,
  ): number {
    const annotation = inWhole ? undefined : this.annotations.get(node);
    let size: number;
    let range: ChangeRange | undefined;
    let change: Change | undefined;
    if (annotation) {
      change = changes.get(annotation.group);
      if (!change) {
        change = { kind: 'inserted', ranges: [], removedText: '', addedText: '' };
        changes.set(annotation.group, change);
      }
      range = {
        block,
        from: offset,
        to: offset,
        kind: annotation.kind,
        node: node.type !== 'text',
      };
      change.ranges.push(range);
    }
    if (node.type === 'text') {
      size = node.text?.length ?? 0;
    } else if (this.leaves.has(node.type ?? '')) {
      size = 1;
    } else {
      const whole = inWhole || (annotation !== undefined && annotation.kind !== 'formatted');
      size = 1;
      for (const child of node.content ?? []) {
        size += this.collect(child, block, offset + size, changes, totals, whole);
      }
      size += 1;
    }
    if (range && change && annotation) {
      range.to = offset + size;
      const text = textOf(node);
      if (annotation.kind === 'deleted') totals.removed += text.length;
      if (annotation.kind === 'inserted') totals.added += text.length;
      if (annotation.kind === 'deleted' || annotation.kind === 'movedFrom') {
        change.removedText = excerpt(change.removedText, text);
      } else {
        change.addedText = excerpt(change.addedText, text);
      }
      change.kind = kindOf(change.ranges);
    }
    return size;
  }
}

/** The units `from`..`to` as nodes: characters of one text node together, `wrap` on each. */
function emit(
  units: Unit[],
  from: number,
  to: number,
  into: JSONContent[],
  wrap: (node: JSONContent) => JSONContent,
): void {
  let k = from;
  while (k < to) {
    const source = units[k]!.node;
    if (source.type !== 'text') {
      into.push(wrap({ ...source }));
      k++;
      continue;
    }
    const start = units[k]!.offset;
    let end = k + 1;
    while (end < to && units[end]!.node === source) end++;
    const text: JSONContent = { type: 'text', text: source.text!.slice(start, start + end - k) };
    if (source.marks) text.marks = source.marks;
    into.push(wrap(text));
    k = end;
  }
}

function kindOf(ranges: readonly ChangeRange[]): Change['kind'] {
  const kinds = new Set(ranges.map((range) => range.kind));
  if (kinds.has('movedFrom') || kinds.has('movedTo')) return 'moved';
  if (kinds.has('inserted') && kinds.has('deleted')) return 'replaced';
  if (kinds.has('inserted')) return 'inserted';
  if (kinds.has('deleted')) return 'deleted';
  return 'formatted';
}

/** The text a node holds, blocks run together with a space. */
export function textOf(node: JSONContent): string {
  if (node.type === 'text') return node.text ?? '';
  return (node.content ?? []).map(textOf).join(node.content?.[0]?.type === 'text' ? '' : ' ');
}

function excerpt(sofar: string, text: string): string {
  if (sofar.length >= EXCERPT) return sofar;
  const joined = sofar ? `${sofar} ${text}` : text;
  return joined.length > EXCERPT ? `${joined.slice(0, EXCERPT - 1)}…` : joined;
}
