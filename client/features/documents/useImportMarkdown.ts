import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { useCallback } from 'react';
import { inkwellSchema } from '../../../common/editor/extensions.ts';
import { useToast } from '../../components/toastContext.ts';
import { useProgress } from '../../lib/useProgress.ts';
import {
  isMarkdownImportError,
  loadMarkdownCodec,
  stopMarkdownParserWarmUp,
} from '../editor/markdown/codec.ts';
import { prefetchSharedDocumentCode } from '../live/persistence/sharedDocumentCode.ts';
import { titleFromFileName } from '../editor/markdown/isMarkdownFile.ts';
import { useDocumentList } from './documentListContext.ts';
import { openMadeDocument } from './openMadeDocument.ts';

/** Above this many bytes, parsing blocks long enough to show progress at once. */
const LARGE_FILE_BYTES = 200_000;

/**
 * Imports a Markdown file as a new document, shown as soon as it is parsed: read and parsed in
 * the browser with the codec, then made in this tab (openMadeDocument.ts). Nothing is shown
 * unless the whole file parsed. If the server refuses the document (too large), the page goes
 * back to where the import started, and its device copy, edits made meanwhile included, is kept
 * aside (useLiveDocument.ts).
 */
export function useImportMarkdown() {
  const toast = useToast();
  const list = useDocumentList();
  const { label, run } = useProgress();

  /**
   * Imports `file`; `companions`, the files dropped or picked with it, give the images it links
   * relatively (`![](images/a.png)`) or embeds (`![[a.png]]`), which are uploaded and linked.
   */
  const importFile = useCallback(
    async (file: File, companions: readonly File[] = []) => {
      let doc: ProseMirrorNode;
      let reading = true;
      stopMarkdownParserWarmUp();
      // The upload code for screenshots embedded as data: addresses loads with the first import
      // (opening a document never needs it), during the parse rather than after it; so does the
      // live document's, for an import from a page that has not opened one yet.
      const inlineImages = import('../editor/uploads/uploadInlineImages.ts');
      prefetchSharedDocumentCode();
      // Awaited after the parse; an import that fails before leaves it unread.
      inlineImages.catch(() => undefined);
      try {
        doc = await run(
          'Importing Markdown…',
          async (painted) => {
            const codec = await loadMarkdownCodec();
            // A huge file is refused by its size, before the browser reads it into memory.
            codec.checkMarkdownFileSize(file.size);
            const text = codec.decodeMarkdownFile(new Uint8Array(await file.arrayBuffer()));
            reading = false;
            // The parse blocks the page: a large file's progress is painted first.
            await painted;
            // Marks for the performance panel and the import benchmark.
            performance.mark('inkwell:import:start');
            const parsed = codec.parseMarkdown(text, inkwellSchema());
            performance.mark('inkwell:import:parsed');
            return parsed;
          },
          // By the file's size, known before it is read: UTF-8 takes a byte or more a character.
          { immediate: file.size > LARGE_FILE_BYTES },
        );
      } catch (error) {
        const ours = isMarkdownImportError(error) ? error.message : null;
        const fallback = reading
          ? "Couldn't read this file. Please try again."
          : `Couldn't import “${file.name}”. Please try again.`;
        toast.show(ours ?? fallback, 'error');
        return;
      }

      // Screenshots embedded as data: addresses become uploaded files before the document is
      // created, so that it is never saved holding them (unless their upload fails).
      const { uploadInlineImages, keptImagesMessage } = await inlineImages;
      const inline = await run('Uploading images…', () => uploadInlineImages(doc));
      doc = inline.doc;
      if (inline.kept > 0) toast.show(keptImagesMessage(inline.kept, inline.reason), 'error');
      if (companions.length > 0) {
        const [linkedImages, { uploadFile }] = await Promise.all([
          import('../editor/uploads/uploadLinkedImages.ts'),
          import('../../lib/uploadFile.ts'),
        ]);
        const linked = await run('Uploading images…', () =>
          linkedImages.uploadLinkedImages(doc, companions, (file, name) =>
            uploadFile(file, name, { waitIfLimited: true }),
          ),
        );
        doc = linked.doc;
        if (linked.failed > 0) {
          toast.show(linkedImages.failedLinkedImagesMessage(linked.failed, linked.reason), 'error');
        }
      }

      openMadeDocument(list, {
        title: titleFromFileName(file.name),
        doc,
        // The server's sentence (too large, invalid) needs the file named; ours names it.
        onRefused: (error) =>
          toast.show(`Couldn't import “${file.name}”: ${error.message}`, 'error'),
      });
    },
    [list, run, toast],
  );

  return {
    /** Label of the running slow step, or null. */
    progress: label,
    importFile,
  };
}
