import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { UploadedFile } from '../../../../../common/api/files.ts';
import { UploadError } from '../../../../lib/uploadFile.ts';

/**
 * Stands in for the upload to the server (client/lib/uploadFile.ts): answers each call with a new
 * file address, or refuses it with `refusal` when `refuses(name)` says so.
 */
export function fakeUpload(
  refuses: (name: string) => boolean = () => false,
  refusal = new UploadError('This file is not an image Inkwell can show.', 415),
) {
  const blobs: Blob[] = [];
  const names: string[] = [];
  const upload = (blob: Blob, name = 'image.png'): Promise<UploadedFile> => {
    blobs.push(blob);
    names.push(name);
    if (refuses(name)) return Promise.reject(refusal);
    const id = `00000000-0000-4000-8000-00000000000${blobs.length}`;
    return Promise.resolve({
      id,
      url: `/files/${id}`,
      width: 1,
      height: 1,
      type: 'image/png',
      bytes: blob.size,
      name,
    });
  };
  return { blobs, names, upload };
}

/** The `src` of every node of `doc` that has one, in document order. */
export function srcsOf(doc: ProseMirrorNode): string[] {
  const found: string[] = [];
  doc.descendants((node) => {
    if (typeof node.attrs.src === 'string') found.push(node.attrs.src);
  });
  return found;
}
