import { Fragment, type Node as ProseMirrorNode } from '@tiptap/pm/model';
import { compactJson } from '../../../../common/editor/compactJson.ts';
import { blocksOf } from '../../editor/chunks/chunks.ts';

/** Milliseconds of writing one task does before it lets the page go on. */
const SLICE_MS = 10;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

/**
 * `doc` (the editor's, chunks or not) as JSON text, written as the server writes a version's
 * content (compactJson), a few blocks per task: the document now, sent to compare with a
 * version. Written at once, 1.2 MB held the page for about 100 ms before the worker even had it.
 * `doc` is a snapshot: what is typed meanwhile is not in it.
 */
export async function contentText(doc: ProseMirrorNode): Promise<string> {
  const blocks: string[] = [];
  let sliceStart = performance.now();
  for (const block of blocksOf(doc)) {
    blocks.push(JSON.stringify(compactJson(block)));
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTask();
      sliceStart = performance.now();
    }
  }
  // The document node's own type and attributes, then its blocks.
  const shell = JSON.stringify(compactJson(doc.copy(Fragment.empty)));
  return `${shell.slice(0, -1)},"content":[${blocks.join(',')}]}`;
}
