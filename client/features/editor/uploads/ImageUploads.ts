import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { insertPoint } from '@tiptap/pm/transform';
import type { EditorView } from '@tiptap/pm/view';
import { randomUuid } from '../../../lib/randomUuid.ts';
import {
  addPlaceholder,
  placeholderPos,
  placeholderWidget,
  removePlaceholder,
} from './uploadPlaceholders.ts';

/**
 * Where a block image dropped or pasted at `pos` goes: between blocks, before the textblock
 * holding `pos` when it is at its start, after it otherwise (an image does not split a line).
 */
export function imagePlace(doc: ProseMirrorNode, pos: number): number {
  const image = doc.type.schema.nodes.image;
  const $pos = doc.resolve(Math.max(0, Math.min(pos, doc.content.size)));
  let place = $pos.pos;
  if ($pos.parent.isTextblock && $pos.depth > 0) {
    place = $pos.parentOffset === 0 ? $pos.before() : $pos.after();
  }
  return (image && insertPoint(doc, place, image)) ?? place;
}

/**
 * The uploads of one editor: each file goes to the server while a placeholder holds its place,
 * and its image goes in when it is done, in the order the files were given.
 */
export class ImageUploads {
  private readonly controllers = new Set<AbortController>();

  constructor(private readonly onError: (message: string) => void) {}

  /** Uploads `files` to go at `pos`, in order. */
  uploadAll(view: EditorView, files: readonly File[], pos: number): void {
    const place = imagePlace(view.state.doc, pos);
    let before: Promise<unknown> = Promise.resolve();
    for (const file of files) before = this.upload(view, file, place, null, before);
  }

  /** Uploads `file` to be shown by the image at `pos`. */
  replace(view: EditorView, file: File, pos: number): void {
    void this.upload(view, file, pos, pos, Promise.resolve());
  }

  /** Stops every upload under way (the editor is going). */
  cancelAll(): void {
    for (const controller of this.controllers) controller.abort();
  }

  /**
   * One upload: its image goes at `place` (or becomes the image at `replaces`) once `before`,
   * the upload of the file before it, has put its own image in.
   */
  private async upload(
    view: EditorView,
    file: File,
    place: number,
    replaces: number | null,
    before: Promise<unknown>,
  ): Promise<void> {
    const id = randomUuid();
    const name = file.name || 'image';
    const controller = new AbortController();
    this.controllers.add(controller);
    const preview = URL.createObjectURL(file);
    const widget = placeholderWidget({ preview, name, onCancel: () => controller.abort() });
    view.dispatch(addPlaceholder(view.state.tr, id, place, widget));
    let cancelled = (_error: unknown) => false;
    try {
      // The upload code loads with the first image: opening a document never needs it.
      const { UploadCancelledError, uploadFile } = await import('../../../lib/uploadFile.ts');
      cancelled = (error) => error instanceof UploadCancelledError;
      const uploaded = await uploadFile(file, name, {
        signal: controller.signal,
        onProgress: (fraction) => widget.setProgress(fraction),
      });
      await before;
      if (!view.isDestroyed) view.dispatch(this.placed(view, id, uploaded.url, replaces !== null));
    } catch (error) {
      if (!view.isDestroyed) view.dispatch(removePlaceholder(view.state.tr, id));
      if (!cancelled(error)) {
        this.onError(error instanceof Error ? error.message : "Couldn't upload the image.");
      }
    } finally {
      this.controllers.delete(controller);
      URL.revokeObjectURL(preview);
    }
  }

  /** The transaction that swaps placeholder `id` for the uploaded image at `src`. */
  private placed(view: EditorView, id: string, src: string, replacing: boolean) {
    const { state } = view;
    const tr = removePlaceholder(state.tr, id);
    const image = state.schema.nodes.image;
    const at = placeholderPos(state, id);
    // Its place was deleted meanwhile: the image goes with it, as if it had been put in first.
    if (at === null || !image) return tr;
    const target = state.doc.nodeAt(at);
    if (replacing && target && (target.type === image || target.type.name === 'inlineImage')) {
      return tr.setNodeMarkup(at, undefined, { ...target.attrs, src });
    }
    return tr.replaceRangeWith(at, at, image.create({ src, alt: '' }));
  }
}
