import type { Node as PMNode } from '@tiptap/pm/model';
import * as Y from 'yjs';
import type { AuthorshipResponse, VersionAuthor } from '../../common/api/versions.ts';
import { inkwellSchema } from '../../common/editor/extensions.ts';
import { validateContent } from '../documents/validateContent.ts';
import { contentOfYDoc, CONTENT_FIELD, nodeOfYDoc } from '../collab/yjsContent.ts';

/**
 * Who wrote what (docs/PRODUCT.md "Version history"): each run of a document's text named by the
 * account whose Yjs client inserted it, from the server's record (`document_yjs_clients`). Yjs
 * keeps the id of the client that made every item, through compaction and in every version's
 * state, so the runs are read straight off the items.
 */

/** A run of inline content written by one account (null: a client nobody recorded). */
export interface AuthoredRun {
  /** Index of the top-level block. */
  block: number;
  /** ProseMirror positions relative to the start of the block's content. */
  from: number;
  to: number;
  user: string | null;
}

/** Runs of one block as they are collected: merged with the run before when the author goes on. */
class RunList {
  readonly runs: AuthoredRun[] = [];

  add(block: number, from: number, to: number, user: string | null): void {
    const last = this.runs.at(-1);
    if (last && last.block === block && last.to === from && last.user === user) last.to = to;
    else this.runs.push({ block, from, to, user });
  }
}

/**
 * The runs of `doc`'s content, at the positions of the ProseMirror document `contentOfYDoc(doc)`
 * reads (y-tiptap makes each Y.XmlText into text nodes of its live characters and each
 * Y.XmlElement into one node), and the accounts they name. Only text and inline leaves get runs.
 */
export function authorshipOf(
  doc: Y.Doc,
  userOfClient: ReadonlyMap<number, string>,
): { runs: AuthoredRun[]; users: Set<string> } {
  const nodes = inkwellSchema().nodes;
  const list = new RunList();
  const userOf = (item: Y.Item) => userOfClient.get(item.id.client) ?? null;
  /** Walks the inline and nested content of an element from `offset`; returns where it ends. */
  const walk = (parent: Y.XmlElement, block: number, offset: number): number => {
    for (const child of parent.toArray()) {
      if (child instanceof Y.XmlText) {
        for (let item = child._start; item !== null; item = item.right) {
          // Formatting items (marks) and deleted text take no place in the document.
          if (item.deleted || !item.countable) continue;
          list.add(block, offset, offset + item.length, userOf(item));
          offset += item.length;
        }
      } else if (child instanceof Y.XmlElement) {
        const type = nodes[child.nodeName];
        if (type?.isLeaf) {
          if (type.isInline && child._item)
            list.add(block, offset, offset + 1, userOf(child._item));
          offset += 1;
        } else {
          offset = walk(child, block, offset + 1) + 1;
        }
      }
    }
    return offset;
  };
  doc
    .getXmlFragment(CONTENT_FIELD)
    .toArray()
    .forEach((block, index) => {
      if (block instanceof Y.XmlElement) walk(block, index, 0);
    });
  const users = new Set<string>();
  for (const run of list.runs) if (run.user !== null) users.add(run.user);
  return { runs: list.runs, users };
}

/**
 * `runs` of the document `raw` placed in `clean`, the same document after the sanitiser, which
 * drops top-level leaves (an image with a refused source) and, inside a block, may remove an
 * inline node or put its alt text in its place; what else it changes (marks, attributes) moves
 * nothing. Top-level blocks are matched in order by type (only leaves, which hold no runs, are
 * ever dropped, so every block with runs finds its own). Within a block, what precedes and
 * follows the changed stretch keeps its runs, and the stretch keeps them only when its size is
 * unchanged: with two removals in one block, the text between them goes without.
 */
export function runsInCleaned(runs: AuthoredRun[], raw: PMNode, clean: PMNode): AuthoredRun[] {
  const blockOf = new Map<number, number>();
  for (let rawIndex = 0, cleanIndex = 0; rawIndex < raw.childCount; rawIndex += 1) {
    if (cleanIndex >= clean.childCount) break;
    if (raw.child(rawIndex).type === clean.child(cleanIndex).type) {
      blockOf.set(rawIndex, cleanIndex);
      cleanIndex += 1;
    }
  }
  const stretches = new Map<number, Stretch | null>();
  const list = new RunList();
  for (const run of runs) {
    const block = blockOf.get(run.block);
    if (block === undefined) continue;
    let change = stretches.get(run.block);
    if (change === undefined) {
      change = changedStretch(raw.child(run.block), clean.child(block));
      stretches.set(run.block, change);
    }
    if (!change) {
      list.add(block, run.from, run.to, run.user);
      continue;
    }
    const { start, endA, endB } = change;
    if (run.from < start) list.add(block, run.from, Math.min(run.to, start), run.user);
    const [from, to] = [Math.max(run.from, start), Math.min(run.to, endA)];
    if (from < to && endA === endB) list.add(block, from, to, run.user);
    const shift = endB - endA;
    if (run.to > endA) list.add(block, Math.max(run.from, endA) + shift, run.to + shift, run.user);
  }
  return list.runs;
}

/** Where two blocks' contents differ: from `start` to `endA` in the first and `endB` in the other. */
interface Stretch {
  start: number;
  endA: number;
  endB: number;
}

/** The stretch where `a` and `b` differ in shape (marks and attributes aside); null if nowhere. */
function changedStretch(a: PMNode, b: PMNode): Stretch | null {
  if (a.eq(b)) return null;
  const [shapeA, shapeB] = [shapeOf(a), shapeOf(b)];
  const most = Math.min(shapeA.length, shapeB.length);
  let start = 0;
  while (start < most && shapeA[start] === shapeB[start]) start += 1;
  if (start === shapeA.length && start === shapeB.length) return null;
  let common = 0;
  while (common < most - start && shapeA.at(-1 - common) === shapeB.at(-1 - common)) common += 1;
  return { start, endA: shapeA.length - common, endB: shapeB.length - common };
}

/**
 * A node's content as one token per ProseMirror position: each UTF-16 unit of text, each leaf,
 * each opening and closing of a node.
 */
function shapeOf(node: PMNode): string[] {
  const tokens: string[] = [];
  const add = (child: PMNode) => {
    if (child.isText) tokens.push(...child.text!.split(''));
    else if (child.isLeaf) tokens.push(`<${child.type.name}/>`);
    else {
      tokens.push(`<${child.type.name}>`);
      child.forEach(add);
      tokens.push(`</${child.type.name}>`);
    }
  };
  node.forEach(add);
  return tokens;
}

/**
 * The answer of an authorship route for `doc`: its content as the version route reads it
 * (through the sanitiser and the schema), the runs on that content, and the people they name,
 * by name; `writers` is what the server recorded of the document.
 */
export function authorshipResponse(
  doc: Y.Doc,
  writers: { userOfClient: ReadonlyMap<number, string>; names: ReadonlyMap<string, string> },
): AuthorshipResponse {
  const { runs } = authorshipOf(doc, writers.userOfClient);
  const content = contentOfYDoc(doc);
  const { json } = validateContent(content, { stored: true });
  // Usually nothing is cleaned, and the sanitiser hands back the very same object.
  const placed =
    json === content
      ? runs
      : runsInCleaned(runs, nodeOfYDoc(doc), inkwellSchema().nodeFromJSON(json));
  const users = new Set(placed.flatMap((run) => (run.user === null ? [] : [run.user])));
  const authors: VersionAuthor[] = [...users]
    .map((id) => ({ id, name: writers.names.get(id) ?? 'Someone' }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const indexOf = new Map(authors.map((author, index) => [author.id, index]));
  return {
    content: json,
    authors,
    runs: placed.map((run) => [
      run.block,
      run.from,
      run.to,
      run.user === null ? -1 : (indexOf.get(run.user) ?? -1),
    ]),
  };
}
