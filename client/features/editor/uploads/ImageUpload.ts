import { Extension } from '@tiptap/core';
import { ImageUploads } from './ImageUploads.ts';
import { uploadPlaceholders } from './uploadPlaceholders.ts';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    imageUpload: {
      /** Uploads image files and inserts them at `pos` (the cursor when left out), in order. */
      uploadImages: (files: readonly File[], pos?: number) => ReturnType;
      /** Uploads `file` and makes the image at `pos` show it instead. */
      replaceImage: (pos: number, file: File) => ReturnType;
    };
  }
}

/** Options of {@link ImageUpload}. */
export interface ImageUploadOptions {
  /** Tells the writer why an upload failed. */
  onError: (message: string) => void;
}

/** Files the browser says are images; the server decides for itself from the bytes. */
export function imageFiles(files: FileList | readonly File[] | undefined | null): File[] {
  return [...(files ?? [])].filter((file) => file.type.startsWith('image/'));
}

/** Opens the system file picker for images; `onFiles` gets what was chosen. */
export function pickImages(onFiles: (files: File[]) => void, multiple = true): void {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = 'image/png,image/jpeg,image/gif,image/webp,image/avif';
  input.multiple = multiple;
  input.addEventListener('change', () => onFiles([...(input.files ?? [])]), { once: true });
  input.click();
}

/**
 * Images pasted (a screenshot on the clipboard), dropped (one or several files, at the drop
 * point), chosen from the slash menu or as "Replace" in the image menu go to the server while a
 * placeholder with the local preview and a progress bar holds their place (ImageUploads.ts).
 * Only the finished insertion is an edit: undo takes the image out, redo puts it back, and the
 * document never holds the preview's `blob:` address.
 */
export const ImageUpload = Extension.create<ImageUploadOptions, { uploads: ImageUploads }>({
  name: 'imageUpload',

  addOptions() {
    return { onError: () => undefined };
  },

  addStorage() {
    return { uploads: new ImageUploads((message) => this.options.onError(message)) };
  },

  addCommands() {
    return {
      uploadImages:
        (files, pos) =>
        ({ view, state, dispatch }) => {
          if (files.length === 0) return false;
          if (dispatch) this.storage.uploads.uploadAll(view, files, pos ?? state.selection.from);
          return true;
        },
      replaceImage:
        (pos, file) =>
        ({ view, dispatch }) => {
          if (dispatch) this.storage.uploads.replace(view, file, pos);
          return true;
        },
    };
  },

  addProseMirrorPlugins() {
    const { uploads } = this.storage;
    return [
      uploadPlaceholders(
        {
          handlePaste: (view, event) => {
            // Text wins: a copy from a word processor carries a picture of the selection too.
            if (event.clipboardData?.getData('text/plain')) return false;
            const files = imageFiles(event.clipboardData?.files);
            if (files.length === 0) return false;
            uploads.uploadAll(view, files, view.state.selection.from);
            return true;
          },
          handleDrop: (view, event, _slice, moved) => {
            if (moved) return false;
            const files = imageFiles(event.dataTransfer?.files);
            if (files.length === 0) return false;
            event.preventDefault();
            const drop = view.posAtCoords({ left: event.clientX, top: event.clientY });
            uploads.uploadAll(view, files, drop?.pos ?? view.state.selection.from);
            return true;
          },
        },
        () => uploads.cancelAll(),
      ),
    ];
  },
});
