import type { Node as ProseMirrorNode, Schema } from '@tiptap/pm/model';
import { TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { updateYFragment } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { withCarriedMarks } from '../../../../common/editor/collab/inlineMarks.ts';
import { blocksOf, CHUNK, chunkBlocks } from '../../editor/chunks/chunks.ts';
import { ArrivedText } from './arrivedText.ts';
import { BlockElements } from './blockElements.ts';
import { blockCount, blockStart, blocksBetween, changedBlocks, findBlocks } from './blockIndex.ts';
import { caretAfterChange, deleteBlocks, insertBlocks, replaceBlock } from './editorSteps.ts';
import { keepSelection, restoreSelection, type KeptSelection } from './keptSelection.ts';
import { rebuildInSchema } from '../../editor/rebuildInSchema.ts';
import { REMOTE_CHANGE } from './remoteChange.ts';
import { editStart, writeTextAtCaret } from './textAtCaret.ts';
import {
  buildTopBlock,
  createMeta,
  type RepairReport,
  type YMeta,
} from '../../../../common/editor/collab/yToProsemirror.ts';

export { isRemoteChange, REMOTE_CHANGE } from './remoteChange.ts';
/** Meta of a remote transaction made by this writer's undo or redo. */
export const UNDO_CHANGE = 'inkwellCollabUndo';

type YChild = Y.XmlElement | Y.XmlText | Y.XmlHook;

/** How long a slice of a made document's build may write (see ChunkedYBinding.buildInSlices). */
const BUILD_SLICE_MS = 8;
/** Blocks written between looks at the clock. */
const BUILD_BATCH = 8;

/** The editor's own node, never read from the shared document. */
const EDITOR_ONLY: ReadonlySet<string> = new Set([CHUNK]);

/**
 * Keeps the chunked editor document and the shared, unchunked Y.XmlFragment in step: one
 * fragment child per top-level block, index for index (chunks are never in the shared document).
 *
 * Why not y-tiptap's ySyncPlugin: it binds the fragment to the editor's document as it is, chunks
 * included, so one writer's gathering or splitting of chunks would become a delete and re-insert
 * of text for everyone. Its per-block primitive, `updateYFragment`, is used for every block that
 * changed; what is ours is finding those blocks (by identity, chunk by chunk, so a keystroke costs
 * the number of chunks rather than of blocks, see blockIndex.ts) and the reverse direction, which
 * replaces only the changed range inside each changed block so that carets and decorations map.
 */
export class ChunkedYBinding {
  readonly doc: Y.Doc;
  readonly meta: YMeta = createMeta();
  /** Origin of local changes kept out of undo (the binding itself is the origin undo tracks). */
  readonly untrackedOrigin = { binding: this };
  /** The editor document the fragment is in step with. */
  private synced: ProseMirrorNode | null = null;
  private view: EditorView | null = null;
  /**
   * Top-level children the schema refused, shown repaired: y-tiptap's writer cannot update them
   * in place (it miscounts a text holding an element), so a local edit replaces them whole.
   */
  private readonly repaired = new WeakSet<YChild>();
  /** Set when a remote change could not be shown at all: nothing more is read or written. */
  stopped = false;
  /** A local change since the last write that belongs in undo history. */
  historyPending = false;
  /**
   * The editor shows the empty paragraph of an empty fragment, which is not in the fragment
   * (see {@link initialDoc}). When someone else's first block arrives, the paragraph goes:
   * kept, it would sit below their block as an extra one that only this editor shows, and
   * typing in it would add it for everyone.
   */
  private placeholder = false;
  /** The editor shows a made document whose fragment is not built yet (see {@link startUnbuilt}). */
  private unbuilt = false;
  /** A build under way in slices (see {@link buildInSlices}): what it writes, and how far. */
  private building: { doc: ProseMirrorNode; blocks: ProseMirrorNode[]; written: number } | null =
    null;
  /** The document to open once the view is mounted (see {@link openLater}). */
  private opening: ProseMirrorNode | null = null;
  /** Where the local edit being written began: its top-level block and the offset in it. */
  private editAt: { block: ProseMirrorNode; offset: number } | null = null;
  /** The selection before the remote change being applied (see keptSelection.ts). */
  private kept: KeptSelection | null = null;
  private readonly elements = new BlockElements(this);
  /** Text others typed at this writer's caret since it was placed (arrivedText.ts). */
  readonly arrived = new ArrivedText(this, ($pos) => this.elements.of($pos));
  /** Set by the editor's transactions: this writer placed the caret, or edited, since the last note. */
  caretNote: 'placed' | 'edited' | null = null;

  constructor(
    readonly fragment: Y.XmlFragment,
    private readonly report: RepairReport = () => undefined,
  ) {
    const doc = fragment.doc;
    if (!doc) throw new RangeError('The fragment must belong to a Y.Doc.');
    this.doc = doc;
  }

  /**
   * The editor document holding the fragment's content, in chunks. An empty fragment shows one
   * empty paragraph that is not written until it is typed into: two writers opening an empty
   * document at once would otherwise add two (a client never seeds content). Until then a
   * remote block replaces it (see {@link placeholder}).
   */
  initialDoc(schema: Schema): ProseMirrorNode {
    this.meta.mapping.clear();
    const blocks = this.fragment.toArray().map((child) => this.build(child, schema));
    const paragraph = schema.nodes.paragraph;
    this.placeholder = blocks.length === 0 && paragraph !== undefined;
    if (blocks.length === 0 && paragraph) blocks.push(paragraph.create());
    return schema.topNodeType.create(null, chunkBlocks(schema, blocks));
  }

  /**
   * {@link initialDoc} for a document made in this tab whose fragment is not built yet
   * (madeFrom.ts): `content` (in the shared schema, unchunked, as the codec built it) in the
   * editor's schema and in chunks. Nothing is written until {@link buildFragment}; edits made
   * before then are in what it writes.
   */
  startUnbuilt(content: ProseMirrorNode, schema: Schema): ProseMirrorNode {
    this.meta.mapping.clear();
    this.placeholder = false;
    this.unbuilt = true;
    const doc = schema.topNodeType.create(
      null,
      chunkBlocks(schema, blocksOf(rebuildInSchema(content, schema))),
    );
    this.synced = doc;
    return doc;
  }

  /**
   * Writes the editor's document into the still empty fragment of a made document, as local
   * inserts are written (every block mapped to its element), out of undo: the import is not an
   * edit to take back.
   */
  buildFragment(): void {
    if (this.startBuild()) this.buildSlice(Infinity);
  }

  /**
   * {@link buildFragment} in slices of about `sliceMs` each, a task apart, so that typing is
   * never kept waiting: a large import takes a few hundred milliseconds to write
   * (docs/ARCHITECTURE.md "Live collaboration"). What is typed meanwhile is written at the end,
   * as an edit; {@link buildFragment} called meanwhile finishes the build at once.
   */
  async buildInSlices(sliceMs = BUILD_SLICE_MS): Promise<void> {
    if (!this.startBuild()) return;
    while (this.building) {
      this.buildSlice(sliceMs);
      if (this.building) await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  /** Starts writing what the editor shows; false when there is nothing (more) to build. */
  private startBuild(): boolean {
    if (this.building) return true;
    if (!this.unbuilt) return false;
    // Not opened yet: the document to open is the one shown (nothing was typed into it).
    const doc = this.opening ?? this.view?.state.doc ?? this.synced;
    if (!doc) {
      this.unbuilt = false;
      return false;
    }
    this.building = { doc, blocks: blocksOf(doc), written: 0 };
    return true;
  }

  /** Writes the build's next blocks for about `sliceMs` (all of them for Infinity). */
  private buildSlice(sliceMs: number): void {
    const building = this.building;
    if (!building) return;
    const { blocks } = building;
    const until = performance.now() + sliceMs;
    this.doc.transact(() => {
      do {
        const end = Math.min(blocks.length, building.written + BUILD_BATCH);
        this.insertBlocks(building.written, blocks.slice(building.written, end));
        building.written = end;
      } while (building.written < blocks.length && performance.now() < until);
    }, this.untrackedOrigin);
    if (building.written < blocks.length) return;
    this.building = null;
    this.unbuilt = false;
    // Typed while the build was under way (the binding wrote nothing then): written now.
    const shown = this.opening ?? this.view?.state.doc ?? this.synced ?? building.doc;
    const change = changedBlocks(building.doc, shown);
    if (change) {
      this.doc.transact(
        () => this.write(building.doc, shown, change.from, change.oldTo, change.newTo),
        this.untrackedOrigin,
      );
    }
    this.synced = shown;
  }

  /**
   * Keeps `doc` (from {@link initialDoc} or {@link startUnbuilt}) to open with {@link openNow}:
   * the editor is made empty, and shows nothing of the fragment until then.
   */
  openLater(doc: ProseMirrorNode): void {
    this.opening = doc;
  }

  /** Opens the document kept by {@link openLater} in the view: not an edit, nothing written. */
  openNow(): void {
    const doc = this.opening;
    const view = this.view;
    if (!doc || !view) return;
    this.opening = null;
    const { state } = view;
    const tr = state.tr.replaceWith(0, state.doc.content.size, doc.content);
    tr.setSelection(TextSelection.atStart(tr.doc));
    tr.setMeta(REMOTE_CHANGE, true).setMeta('addToHistory', false).setMeta('preventUpdate', true);
    this.synced = tr.doc;
    view.dispatch(tr);
  }

  private build(child: YChild, schema: Schema): ProseMirrorNode {
    let refused = false;
    const block = buildTopBlock(
      child,
      schema,
      this.meta,
      (problem) => {
        refused = true;
        this.report(problem);
      },
      EDITOR_ONLY,
    );
    if (refused) this.repaired.add(child);
    else this.repaired.delete(child);
    return block;
  }

  /** Starts listening to the fragment; the view must show {@link initialDoc}'s result. */
  attach(view: EditorView): void {
    this.view = view;
    this.synced = view.state.doc;
    this.doc.on('beforeTransaction', this.beforeTransaction);
    if (this.unbuilt || this.opening) {
      this.fragment.observeDeep(this.observe);
      return;
    }
    if (blockCount(view.state.doc) !== this.fragment.length && this.fragment.length > 0) {
      // Opened with other content than initialDoc's: read the fragment once the view is built
      // (a dispatch from inside the view's construction would be lost).
      queueMicrotask(() => this.rerender());
    }
    this.fragment.observeDeep(this.observe);
  }

  /** Stops listening to the fragment (the view is going away). */
  detach(): void {
    this.fragment.unobserveDeep(this.observe);
    this.doc.off('beforeTransaction', this.beforeTransaction);
    this.view = null;
  }

  /** Keeps the selection in the shared document before someone else's change is applied to it. */
  private beforeTransaction = (transaction: Y.Transaction) => {
    this.kept = null;
    const view = this.view;
    if (transaction.origin === this || transaction.origin === this.untrackedOrigin) return;
    if (!view || this.stopped || this.unbuilt || this.opening || this.placeholder) return;
    if (view.state.doc !== this.synced) return;
    this.kept = keepSelection(this, view.state, ($pos) => this.elements.of($pos));
  };

  /** {@link ArrivedText.splitAfterArrived}, from the editor document the fragment holds. */
  splitAfterArrived(
    before: EditorState,
    transactions: readonly Transaction[],
    state: EditorState,
  ): Transaction | null {
    if (before.doc !== this.synced || this.stopped || this.unbuilt || this.opening) return null;
    return this.arrived.splitAfterArrived(before, transactions, state);
  }

  /** After the editor's update: notes where this writer placed the caret (see {@link caretNote}). */
  noteCaret(state: EditorState): void {
    const note = this.caretNote;
    this.caretNote = null;
    if (!note || state.doc !== this.synced || this.stopped || this.unbuilt || this.opening) return;
    if (note === 'placed') this.arrived.placed(state);
    else this.arrived.edited(state);
  }

  /**
   * Writes what the editor changed since the last call into the fragment; `previous` (the state
   * before the last transaction) tells where the edit began.
   */
  syncLocal(view: EditorView, previous?: EditorState): void {
    const doc = view.state.doc;
    const old = this.synced;
    if (doc === old) return;
    this.synced = doc;
    const tracked = this.historyPending;
    this.historyPending = false;
    // Read-only: the shared document is only read. Not built yet: the build writes it all. Not
    // opened yet: the editor's empty document is not the shared one.
    if (!old || !view.editable || this.stopped || this.unbuilt || this.opening) return;
    const change = changedBlocks(old, doc);
    if (!change) return;
    // Typed into: the empty document's paragraph is written now, as this writer's.
    this.placeholder = false;
    this.editAt = editStart(view.state, previous?.doc === old ? previous : undefined);
    try {
      this.doc.transact(
        () => this.write(old, doc, change.from, change.oldTo, change.newTo),
        tracked ? this : this.untrackedOrigin,
      );
    } catch (error) {
      // Thrown from a view update it would break the editor; what was written stays written.
      this.report(`a local change could not be written: ${String(error)}`);
    } finally {
      this.editAt = null;
    }
  }

  private write(
    old: ProseMirrorNode,
    doc: ProseMirrorNode,
    from: number,
    oldTo: number,
    newTo: number,
  ): void {
    const olds = blocksBetween(old, from, oldTo);
    const news = blocksBetween(doc, from, newTo);
    const yCount = this.fragment.length;
    const ys: YChild[] = [];
    for (let i = from; i < Math.min(oldTo, yCount); i++) ys.push(this.fragment.get(i));
    // Blocks equal in content at either end (Enter at a paragraph's start makes the old
    // paragraph the second one): kept as they are, so text someone else types in them stays.
    let head = 0;
    while (head < olds.length && head < news.length && olds[head]?.eq(news[head]!)) head++;
    let tail = 0;
    while (
      tail < olds.length - head &&
      tail < news.length - head &&
      olds[olds.length - 1 - tail]?.eq(news[news.length - 1 - tail]!)
    ) {
      tail++;
    }
    const remap = (y: YChild | undefined, node: ProseMirrorNode | undefined) => {
      if (y && node) this.meta.mapping.set(y, node);
    };
    for (let k = 0; k < head; k++) remap(ys[k], news[k]);
    for (let k = 1; k <= tail; k++) remap(ys[olds.length - k], news[news.length - k]);
    const oldMiddle = olds.length - head - tail;
    const newMiddle = news.slice(head, news.length - tail);
    // ys[i] is olds[i]'s element; the last olds may have none yet (the empty document's paragraph).
    const yMiddle = ys.slice(head, Math.max(head, Math.min(ys.length, olds.length - tail)));
    const start = from + head;
    const pairs = Math.min(oldMiddle, newMiddle.length, yMiddle.length);
    for (let k = 0; k < pairs; k++) {
      this.updateBlock(start + k, yMiddle[k]!, newMiddle[k]!);
    }
    const extraOld = Math.min(oldMiddle, yMiddle.length) - pairs;
    if (extraOld > 0) {
      for (const y of yMiddle.slice(pairs, pairs + extraOld)) this.meta.mapping.delete(y);
      this.fragment.delete(start + pairs, extraOld);
    }
    const inserted = newMiddle.slice(pairs);
    if (inserted.length > 0)
      this.insertBlocks(Math.min(start + pairs, this.fragment.length), inserted);
  }

  /** Brings fragment child `index` in line with `node`, in place when it is the same kind. */
  private updateBlock(index: number, y: YChild, node: ProseMirrorNode): void {
    if (y instanceof Y.XmlElement && y.nodeName === node.type.name && !this.repaired.has(y)) {
      try {
        this.writeBlock(y, node);
        return;
      } catch (error) {
        this.report(`updating a block failed: ${String(error)}`);
      }
    }
    this.meta.mapping.delete(y);
    this.fragment.delete(index, 1);
    this.insertBlocks(index, [node]);
  }

  private insertBlocks(index: number, nodes: readonly ProseMirrorNode[]): void {
    const elements = nodes.map((node) => new Y.XmlElement(node.type.name));
    this.fragment.insert(index, elements);
    // Filled once in the document: y-tiptap's writer reads the element it fills.
    elements.forEach((element, i) => this.writeBlock(element, nodes[i]!));
  }

  /**
   * y-tiptap's diff of one block. Marks on inline nodes other than text travel in an attribute
   * (inlineMarks.ts): a block holding such marks is handed over as a carrier copy, and its
   * element mapped back to the editor's block, which the reverse direction looks up by identity.
   */
  private writeBlock(y: Y.XmlElement, node: ProseMirrorNode): void {
    const carried = withCarriedMarks(node);
    if (this.editAt?.block === node) writeTextAtCaret(y, carried, this.editAt.offset);
    updateYFragment(this.doc, y, carried, this.meta);
    if (carried !== node) this.meta.mapping.set(y, node);
    this.elements.remember(node, y);
  }

  private observe = (events: Y.YEvent<Y.AbstractType<unknown>>[], transaction: Y.Transaction) => {
    if (transaction.origin === this || transaction.origin === this.untrackedOrigin) return;
    const view = this.view;
    if (!view) return;
    // A change before the document was opened: opened first (the mapping names its blocks).
    this.openNow();
    if (this.placeholder && this.fragment.length > 0) {
      // Someone else's first blocks: shown instead of the unwritten empty paragraph.
      try {
        this.rerender();
      } catch (error) {
        this.report(`collaboration stopped: ${String(error)}`);
        this.stopped = true;
        this.detach();
      }
      return;
    }
    Y.iterateDeletedStructs(transaction, transaction.deleteSet, (struct) => {
      if (struct instanceof Y.Item && struct.content instanceof Y.ContentType) {
        this.meta.mapping.delete(struct.content.type);
      }
    });
    let tr: Transaction | null;
    const kept = this.kept;
    this.kept = null;
    try {
      tr = this.remoteTransaction(view, events, kept);
    } catch (error) {
      this.report(`a remote change could not be applied in place: ${String(error)}`);
      tr = null;
    }
    try {
      if (!tr) {
        this.rerender();
        return;
      }
      if (transaction.origin instanceof Y.UndoManager) {
        caretAfterChange(view.state.doc, tr);
        tr.setMeta(UNDO_CHANGE, true).scrollIntoView();
      }
      this.synced = tr.doc;
      view.dispatch(tr);
    } catch (error) {
      // Nothing thrown here may reach the provider (it would drop the connection's messages).
      // As Tiptap's content check does, the sync stops rather than risk the writer's text; the
      // shared document keeps everything.
      this.report(`collaboration stopped: ${String(error)}`);
      this.stopped = true;
      this.detach();
    }
  };

  /**
   * The editor transaction for a change of the fragment: blocks inserted and deleted at their
   * index, and each changed block replaced only where it differs. Null when the editor and the
   * fragment were found out of step (then everything is read again).
   */
  private remoteTransaction(
    view: EditorView,
    events: Y.YEvent<Y.AbstractType<unknown>>[],
    kept: KeptSelection | null,
  ): Transaction | null {
    const { state } = view;
    const schema = state.schema;
    type Op =
      | { kind: 'delete'; index: number; count: number }
      | { kind: 'insert'; index: number; children: YChild[] }
      | { kind: 'update'; index: number; child: YChild };
    const ops: Op[] = [];
    const inserted = new Set<unknown>();
    for (const event of events) {
      if (event.target !== this.fragment) continue;
      let index = 0;
      for (const delta of event.changes.delta) {
        if (delta.retain) index += delta.retain;
        else if (delta.delete) {
          ops.push({ kind: 'delete', index, count: delta.delete });
          index += delta.delete;
        } else if (Array.isArray(delta.insert)) {
          const children = delta.insert as YChild[];
          children.forEach((child) => inserted.add(child));
          ops.push({ kind: 'insert', index, children });
        }
      }
    }
    const changed = new Set<YChild>();
    for (const event of events) {
      let target: Y.AbstractType<unknown> | null = event.target;
      while (target && target.parent !== this.fragment) target = target.parent;
      if (!target || target === this.fragment || inserted.has(target)) continue;
      if (target._item?.deleted) continue;
      changed.add(target as YChild);
    }
    if (changed.size > 0) {
      const olds = new Map<ProseMirrorNode, YChild>();
      for (const child of changed) {
        const old = this.meta.mapping.get(child);
        if (!old || Array.isArray(old)) return null;
        olds.set(old, child);
      }
      const found = findBlocks(state.doc, new Set(olds.keys()));
      if (found.size !== olds.size) return null;
      for (const [old, { index }] of found) {
        const child = olds.get(old);
        if (child) ops.push({ kind: 'update', index, child });
      }
    }
    // From the end, so that the indices of the blocks before each change stay as they were;
    // at one index, the change of the old block before the insert in front of it.
    ops.sort(
      (a, b) => b.index - a.index || (a.kind === 'insert' ? 1 : 0) - (b.kind === 'insert' ? 1 : 0),
    );
    const tr = state.tr;
    const updated: { child: YChild; pos: number; steps: number }[] = [];
    for (const op of ops) {
      if (op.kind === 'delete') deleteBlocks(tr, op.index, op.count);
      else if (op.kind === 'insert') {
        const nodes = op.children.map((child) => this.build(child, schema));
        insertBlocks(tr, op.index, nodes);
      } else {
        const pos = blockStart(tr.doc, op.index);
        const old = tr.doc.nodeAt(pos);
        if (!old) return null;
        replaceBlock(tr, pos, old, this.build(op.child, schema));
        updated.push({ child: op.child, pos, steps: tr.steps.length });
      }
    }
    if (tr.doc.childCount === 0) insertBlocks(tr, 0, []);
    // The mapping must name the blocks of the new document (see findBlocks above).
    const rewritten = new Map<YChild, number>();
    for (const { child, pos, steps } of updated) {
      const at = tr.mapping.slice(steps).map(pos, 1);
      const node = tr.doc.nodeAt(at);
      if (!node) continue;
      this.meta.mapping.set(child, node);
      rewritten.set(child, at);
      if (child instanceof Y.XmlElement) this.elements.remember(node, child);
    }
    if (kept) restoreSelection(this, tr, kept, rewritten);
    return tr.setMeta(REMOTE_CHANGE, true).setMeta('addToHistory', false);
  }

  /** Reads the whole fragment again: the fallback when editor and fragment are out of step. */
  rerender(): void {
    const view = this.view;
    if (!view) return;
    const { state } = view;
    const doc = this.initialDoc(state.schema);
    const tr = state.tr.replaceWith(0, state.doc.content.size, doc.content);
    tr.setMeta(REMOTE_CHANGE, true).setMeta('addToHistory', false);
    this.synced = tr.doc;
    view.dispatch(tr);
  }
}
