import type { Node as ProseMirrorNode, Schema } from '@tiptap/pm/model';
import { updateYFragment } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import type { JSONContent } from '@tiptap/core';
import { MAX_DEPTH } from '../../common/api/limits.ts';
import { restoreCarriedMarks, withCarriedMarks } from '../../common/editor/collab/inlineMarks.ts';
import { buildTopBlock, createMeta } from '../../common/editor/collab/yToProsemirror.ts';
import { FRONT_MATTER } from '../../common/editor/dialects/frontMatter/FrontMatter.ts';
import { countsAsLevel } from '../../common/editor/documentDepth.ts';
import { sanitizeDocJson } from '../../common/editor/sanitizeDocJson.ts';
import { schemaProblem, structureProblem } from '../documents/validateContent.ts';
import { lostText, putBack, type LostText } from './lostText.ts';
import { CONTENT_FIELD } from './yjsContent.ts';

/** Any shared type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Yjs types its events as any
type YType = Y.AbstractType<any>;

/** y-tiptap's name for the second and later marks of a type that may overlap (`comment--<hash>`). */
const HASHED_MARK = /(.*)(--[a-zA-Z0-9+/=]{8})$/;

/** What a check found: why to refuse (null if not), whether anything changed, and any repair. */
export interface Verdict {
  problem: string | null;
  changed: boolean;
  /**
   * The update that makes the document valid again where the checked update, valid where its
   * writer made it, met another writer's concurrent change (two writers each deleting one of a
   * list item's two paragraphs), and that gives back text the merge deleted though nobody chose
   * to (lostText.ts): the shadow holds it; the live document must take it too.
   */
  repair: Uint8Array | null;
}

/** A block found to break only the rules on which nodes may go where. */
const MISFIT = Symbol('misfit');

/** Origin of the guard's repairs on the shadow. */
const REPAIR = Symbol('repair');

/**
 * Keeps a document valid for the schema against what clients send (docs/PRODUCT.md "Content"):
 * a modified client could send an update that no editor can show, and each editor's binding
 * would then delete the node it cannot build, erasing it for everyone. Every update is tried on
 * a shadow copy first and only the top-level blocks it touched are checked, so that the cost
 * follows the size of the change, not of the document.
 */
export class SchemaGuard {
  /**
   * The shadow copy, made from the live document when first needed: for a large document it
   * costs as much as loading it, which need not delay its first sync (see {@link prepare}).
   */
  private shadowDoc: Y.Doc | null = null;

  constructor(
    private readonly schema: Schema,
    /** The live document's state, to start from and to start over from after a refusal. */
    private readonly truth: () => Uint8Array,
  ) {}

  private get shadow(): Y.Doc {
    return (this.shadowDoc ??= this.fresh());
  }

  /** Makes the shadow copy now, rather than at the first update's check. */
  prepare(): void {
    void this.shadow;
  }

  /**
   * Why `update` would make the document invalid (`problem`, null if it would not; the shadow
   * then holds it), and whether it brings anything at all (a sync step that brings nothing new
   * need not be stored). Typing into a block deleted meanwhile changes no type Yjs would report,
   * yet it brings new items: the document must take them, or the writer's next update would
   * depend on items it lacks.
   */
  check(update: Uint8Array): Verdict {
    const brought = { anything: false };
    const verdict = this.tryOnShadow(update, [], true, brought);
    // The shadow may hold part of a refused update; it starts again from the live document.
    if (verdict.problem) this.reset();
    return { ...verdict, changed: brought.anything || verdict.repair !== null };
  }

  /** Starts again from the live document, after an update it checked was refused anyway. */
  reset(): void {
    this.destroy();
  }

  /**
   * Mirrors an update the live document took without a check here (another instance's, through
   * Redis, checked there; the server's own); until the shadow is made, it will hold it anyway.
   * Two updates each valid on its own instance can merge into content the schema refuses: the
   * repair is returned then, for the live document to take (null when there is none to make).
   * Lost text is given back only by the instance that checked the update: both instances doing
   * so would give it back twice.
   */
  follow(update: Uint8Array): Uint8Array | null {
    if (!this.shadowDoc) return null;
    const verdict = this.tryOnShadow(update, [], false);
    if (verdict.problem) {
      // Nothing to repair it with: the shadow starts again from the live document.
      this.reset();
      return null;
    }
    return verdict.repair;
  }

  destroy(): void {
    this.shadowDoc?.destroy();
    this.shadowDoc = null;
  }

  private fresh(): Y.Doc {
    // Deleted blocks keep their structure here (their text is still dropped): typing that reaches
    // a block deleted meanwhile finds where it was, and is given back (lostText.ts).
    const doc = new Y.Doc({ gcFilter: (item) => !(item.content instanceof Y.ContentType) });
    doc.getXmlFragment(CONTENT_FIELD);
    Y.applyUpdate(doc, this.truth());
    return doc;
  }

  private tryOnShadow(
    update: Uint8Array,
    changed: YType[],
    giveBack: boolean,
    brought = { anything: false },
  ): Omit<Verdict, 'changed'> {
    const refuse = (problem: string) => ({ problem, repair: null });
    const fragment = this.shadow.getXmlFragment(CONTENT_FIELD);
    const blocks = new Set<Y.XmlElement | Y.XmlText>();
    const lost: LostText[] = [];
    const collect = (transaction: Y.Transaction) => {
      for (const type of transaction.changed.keys()) changed.push(type);
      if (transaction.deleteSet.clients.size > 0 || statesDiffer(transaction)) {
        brought.anything = true;
      }
      // Read before the transaction ends: Yjs then drops the content of what it deleted.
      if (giveBack && transaction.deleteSet.clients.size > 0) {
        lost.push(...lostText(this.shadow, fragment, update, transaction));
      }
      // Yjs lists only types that existed before the transaction as changed: blocks inserted at
      // the top level are found among the fragment's items by their clocks.
      if (!transaction.changed.has(fragment as YType)) return;
      for (let item = fragment._start; item; item = item.right) {
        const created = item.id.clock >= (transaction.beforeState.get(item.id.client) ?? 0);
        const content = item.content;
        if (created && !item.deleted && content instanceof Y.ContentType) {
          blocks.add(content.type as Y.XmlElement | Y.XmlText);
        }
      }
    };
    this.shadow.on('afterTransaction', collect);
    try {
      Y.applyUpdate(this.shadow, update);
    } catch {
      return refuse('The update is not a Yjs update.');
    } finally {
      this.shadow.off('afterTransaction', collect);
    }
    // Content whose causes never arrived would be checked by no one when it later lands.
    if (this.shadow.store.pendingStructs || this.shadow.store.pendingDs) {
      return refuse('The update depends on changes the server does not have.');
    }
    if (this.shadow.share.size !== 1)
      return refuse('The update writes outside the document content.');
    // Named entries on the fragment itself: no reader shows them, no check would see them.
    if (fragment._map.size > 0) return refuse('The update writes outside the document content.');
    let topLevel = false;
    for (const type of changed) {
      if (type === fragment) {
        topLevel = true;
        continue;
      }
      const block = topLevelOf(type, fragment);
      if (block === null) return refuse('The update writes outside the document content.');
      if (block._item && !block._item.deleted) blocks.add(block);
    }
    const misfits: Y.XmlElement[] = [];
    for (const block of blocks) {
      if (!(block instanceof Y.XmlElement)) return refuse('Text outside a block.');
      const problem = this.blockProblem(block);
      if (problem === MISFIT) misfits.push(block);
      else if (problem) return refuse(problem);
    }
    const topMisfit = topLevel && this.topLevelProblem(fragment) !== null;
    if (misfits.length === 0 && !topMisfit && lost.length === 0) {
      return { problem: null, repair: null };
    }
    return this.repair(fragment, misfits, lost);
  }

  /**
   * Repairs blocks that break only the rules on which nodes may go where, as the editor repairs
   * what it reads (common/editor/collab/yToProsemirror.ts: text kept, what cannot stand dropped
   * or unwrapped), and the top level (front matter first, at least one block): one update made
   * on the shadow, whose result is checked again. Two instances that both see one merge (each
   * gets the other's half through Redis) both repair it; deleting is the same change twice, and
   * the rare insert (an empty list item's paragraph) leaves a valid document either way. Text
   * lost to a concurrent deletion is put back first, as paragraphs where its block was.
   */
  private repair(
    fragment: Y.XmlFragment,
    misfits: Y.XmlElement[],
    lost: readonly LostText[],
  ): Omit<Verdict, 'changed'> {
    const updates: Uint8Array[] = [];
    const collect = (update: Uint8Array) => updates.push(update);
    this.shadow.on('update', collect);
    try {
      this.shadow.transact(() => {
        putBack(fragment, lost);
        for (const block of misfits) this.repairBlock(fragment, block);
        this.repairTop(fragment);
      }, REPAIR);
    } finally {
      this.shadow.off('update', collect);
    }
    for (const block of fragment.toArray()) {
      if (!(block instanceof Y.XmlElement))
        return { problem: 'Text outside a block.', repair: null };
    }
    for (const block of misfits) {
      if (block._item?.deleted) continue;
      const problem = this.blockProblem(block);
      if (problem)
        return { problem: 'The update breaks the document beyond repair.', repair: null };
    }
    if (this.topLevelProblem(fragment)) {
      return { problem: 'The update breaks the document beyond repair.', repair: null };
    }
    return { problem: null, repair: updates.length > 0 ? Y.mergeUpdates(updates) : null };
  }

  private repairBlock(fragment: Y.XmlFragment, block: Y.XmlElement): void {
    const meta = createMeta();
    const node = buildTopBlock(block, this.schema, meta, () => undefined);
    if (node.type.name === block.nodeName) {
      writeNode(this.shadow, block, node, meta);
      return;
    }
    const index = indexOf(block);
    fragment.delete(index, 1);
    insertNode(this.shadow, fragment, index, node);
  }

  /** Front matter first and once (a later one kept as YAML code), and at least one block. */
  private repairTop(fragment: Y.XmlFragment): void {
    const children = fragment.toArray();
    children.forEach((child, index) => {
      if (!(child instanceof Y.XmlElement) || child.nodeName !== FRONT_MATTER || index === 0)
        return;
      const attrs = child.getAttributes() as { yaml?: unknown };
      const first = fragment.get(0);
      fragment.delete(index, 1);
      if (first instanceof Y.XmlElement && first.nodeName === FRONT_MATTER) {
        const yaml = typeof attrs.yaml === 'string' ? attrs.yaml.replace(/\n$/, '') : '';
        const code = this.schema.nodes.codeBlock!.create(
          { language: 'yaml' },
          yaml ? this.schema.text(yaml) : null,
        );
        insertNode(this.shadow, fragment, index, code);
      } else {
        const moved = new Y.XmlElement(FRONT_MATTER);
        for (const [key, value] of Object.entries(attrs)) {
          moved.setAttribute(key, value as string);
        }
        fragment.insert(0, [moved]);
      }
    });
    const blocks = fragment.toArray().filter((child) => {
      return !(child instanceof Y.XmlElement && child.nodeName === FRONT_MATTER);
    });
    if (blocks.length === 0) {
      insertNode(this.shadow, fragment, fragment.length, this.schema.nodes.paragraph!.create());
    }
  }

  /** The top-level blocks' kinds and order against the document node's content expression. */
  private topLevelProblem(fragment: Y.XmlFragment): string | null {
    let match = this.schema.topNodeType.contentMatch;
    for (const child of fragment.toArray()) {
      const type = child instanceof Y.XmlElement ? this.schema.nodes[child.nodeName] : undefined;
      const next = type ? match.matchType(type) : null;
      if (!next) return `A block cannot stand here: ${describe(child)}.`;
      match = next;
    }
    return match.validEnd ? null : 'The document is incomplete.';
  }

  /** Why `block` is refused, {@link MISFIT} when it only needs a repair, null when it is valid. */
  private blockProblem(block: Y.XmlElement): string | typeof MISFIT | null {
    // Measured before anything below walks the block recursively: a modified client could nest
    // it deeper than the call stack goes, and an editor refuses such a change (depthLimit.ts).
    const depth = nestingDepth(block);
    if (depth > MAX_DEPTH) {
      return `The update nests blocks ${depth} levels deep; a document may nest ${MAX_DEPTH}.`;
    }
    // Marks on inline nodes other than text travel in an attribute (inlineMarks.ts): restored
    // here so that the schema and the link rules check them like any other mark, and refused,
    // not dropped, when the schema would not take them.
    const refused: string[] = [];
    const json = restoreCarriedMarks(
      elementJson(block),
      this.schema,
      (why) => refused.push(why),
      this.schema.topNodeType,
    );
    if (refused.length > 0) return `The update holds marks the editor cannot show: ${refused[0]}.`;
    const problem = structureProblem(this.schema, json);
    if (problem) return problem;
    // The link, image and HTML rules of docs/PRODUCT.md "Links and URLs" and "Raw HTML": what
    // an import would have cleaned may not arrive through the socket either.
    const cleaned = sanitizeDocJson({ type: 'doc', content: [json] })?.content?.[0];
    const same =
      cleaned !== undefined &&
      JSON.stringify(this.schema.nodeFromJSON(cleaned).toJSON()) ===
        JSON.stringify(this.schema.nodeFromJSON(json).toJSON());
    if (!same) return 'The update holds a link, image or HTML that is not allowed.';
    return schemaProblem(this.schema, json) ? MISFIT : null;
  }
}

/** Writes `node` into `element` of the same type, as the editor's binding writes a block. */
/** Whether a transaction added items: its state vector moved. */
function statesDiffer(transaction: Y.Transaction): boolean {
  const { beforeState, afterState } = transaction;
  if (beforeState.size !== afterState.size) return true;
  for (const [client, clock] of afterState) {
    if (beforeState.get(client) !== clock) return true;
  }
  return false;
}

function writeNode(
  doc: Y.Doc,
  element: Y.XmlElement,
  node: ProseMirrorNode,
  meta: ReturnType<typeof createMeta>,
): void {
  // Marks on inline nodes other than text travel in an attribute (inlineMarks.ts).
  updateYFragment(doc, element, withCarriedMarks(node), meta);
}

/** Inserts `node` as a new top-level element at `index`. */
function insertNode(
  doc: Y.Doc,
  fragment: Y.XmlFragment,
  index: number,
  node: ProseMirrorNode,
): void {
  const element = new Y.XmlElement(node.type.name);
  fragment.insert(index, [element]);
  writeNode(doc, element, node, createMeta());
}

/** The index of a live top-level block among its siblings. */
function indexOf(child: Y.XmlElement): number {
  let index = 0;
  for (let item = child._item?.left ?? null; item; item = item.left) {
    if (!item.deleted && item.countable) index++;
  }
  return index;
}

/** How deep `block` nests, itself counting 1, as MAX_DEPTH counts it (documentDepth.ts); iterative. */
function nestingDepth(block: Y.XmlElement): number {
  const stack: Array<[Y.XmlElement, number]> = [[block, 1]];
  let deepest = 1;
  while (stack.length > 0) {
    const [element, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of element.toArray()) {
      if (!(child instanceof Y.XmlElement)) continue;
      const node = { type: child.nodeName, content: child.length > 0 ? [] : undefined };
      stack.push([child, countsAsLevel(node, element.nodeName) ? depth + 1 : depth]);
    }
  }
  return deepest;
}

/** The child of `fragment` that holds `type`, or null when `type` is not inside `fragment`. */
function topLevelOf(type: YType, fragment: Y.XmlFragment): Y.XmlElement | Y.XmlText | null {
  let current: YType = type;
  for (;;) {
    const parent = current._item?.parent;
    if (!parent || !(parent instanceof Y.AbstractType)) return null;
    if (parent === fragment) {
      return current instanceof Y.XmlElement || current instanceof Y.XmlText ? current : null;
    }
    current = parent;
  }
}

function describe(child: unknown): string {
  return child instanceof Y.XmlElement ? child.nodeName : 'text';
}

/** One element as ProseMirror JSON, exactly as y-tiptap's yXmlFragmentToProsemirrorJSON writes it. */
function elementJson(element: Y.XmlElement): JSONContent {
  const json: JSONContent = { type: element.nodeName };
  const attrs = element.getAttributes();
  if (Object.keys(attrs).length > 0) json.attrs = attrs;
  const content: JSONContent[] = [];
  for (const child of element.toArray()) {
    if (child instanceof Y.XmlElement) content.push(elementJson(child));
    else if (child instanceof Y.XmlText) content.push(...textJson(child));
    else content.push({ type: '(not an element)' });
  }
  if (content.length > 0) json.content = content;
  return json;
}

function textJson(text: Y.XmlText): JSONContent[] {
  const delta = text.toDelta() as Array<{ insert: unknown; attributes?: Record<string, unknown> }>;
  return delta.map((part) => {
    // An embed in a text (insertEmbed) is nothing ProseMirror has: it fails the check.
    if (typeof part.insert !== 'string') return { type: '(embed)' };
    const json: JSONContent = { type: 'text', text: part.insert };
    if (part.attributes) {
      json.marks = Object.entries(part.attributes).map(([name, attrs]) => ({
        type: HASHED_MARK.exec(name)?.[1] ?? name,
        ...(attrs && typeof attrs === 'object' ? { attrs } : {}),
      }));
    }
    return json;
  });
}
