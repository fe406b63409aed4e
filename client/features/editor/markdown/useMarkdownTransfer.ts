import { unchunked } from '../chunks/chunks.ts';
import type { Editor } from '@tiptap/core';
import { useCallback } from 'react';
import { useToast } from '../../../components/toastContext.ts';
import { downloadBlob, downloadText, fileNameForTitle } from '../../../lib/download.ts';
import { formatShortcut } from '../../../lib/platform.ts';
import { useProgress } from '../../../lib/useProgress.ts';
import { insertDocument } from './applyMarkdown.ts';
import { isMarkdownImportError, loadMarkdownCodec } from './codec.ts';

/** Above this many characters, parsing blocks long enough to show progress at once. */
const LARGE_TEXT = 200_000;
/** Above this many document positions, serialising is slow enough to show progress at once. */
const LARGE_DOC = 400_000;

function describe(error: unknown, action: string): string {
  if (isMarkdownImportError(error)) return error.message;
  return `Couldn't ${action}. Please try again.`;
}

/**
 * Export, copy and paste of Markdown for one editor, with progress for slow work and errors as
 * alerts. A failed paste leaves the document exactly as it was: nothing is applied until
 * parsing has succeeded. (Importing a file makes a new document: see documents/useImportMarkdown.)
 */
export function useMarkdownTransfer(editor: Editor, getTitle: () => string) {
  const toast = useToast();
  const { label: progressLabel, run } = useProgress();

  const serialize = useCallback(
    (label: string) =>
      run(
        label,
        async (painted) => {
          // The image address rewriting loads with the codec, on the first export or copy.
          const [{ serializeMarkdown }, { withAbsoluteFileUrls }] = await Promise.all([
            loadMarkdownCodec(),
            import('../uploads/imageSources.ts'),
            painted,
          ]);
          // Uploaded images by absolute address, so the file shows them outside Inkwell too.
          const doc = withAbsoluteFileUrls(unchunked(editor.state.doc), window.location.origin);
          return serializeMarkdown(doc);
        },
        { immediate: editor.state.doc.content.size > LARGE_DOC },
      ),
    [editor, run],
  );

  const exportFile = useCallback(async () => {
    try {
      const markdown = await serialize('Exporting Markdown…');
      downloadText(fileNameForTitle(getTitle(), 'md'), markdown, 'text/markdown;charset=utf-8');
    } catch (error) {
      toast.show(describe(error, 'export this document'), 'error');
    }
  }, [serialize, getTitle, toast]);

  const exportZip = useCallback(async () => {
    try {
      const zip = await run('Exporting with images…', async () => {
        // The zip writer (fflate) and the image fetching load on the first export: opening and
        // editing a document never needs them.
        const [{ serializeMarkdown }, { exportWithImages }, { fetchUploadedImage }] =
          await Promise.all([
            loadMarkdownCodec(),
            import('../uploads/exportWithImages.ts'),
            import('../uploads/fetchUploadedImage.ts'),
          ]);
        return exportWithImages(unchunked(editor.state.doc), getTitle(), {
          fetchImage: fetchUploadedImage,
          serialize: serializeMarkdown,
          origin: window.location.origin,
        });
      });
      downloadBlob(zip.fileName, new Blob(zip.chunks, { type: 'application/zip' }));
      if (zip.missing > 0) {
        const count = zip.missing === 1 ? 'One image' : `${zip.missing} images`;
        toast.show(`${count} couldn't be fetched; linked by address instead.`, 'error');
      }
    } catch (error) {
      toast.show(describe(error, 'export this document with its images'), 'error');
    }
  }, [editor, run, getTitle, toast]);

  const copyMarkdown = useCallback(async () => {
    try {
      const markdown = await serialize('Copying Markdown…');
      await navigator.clipboard.writeText(markdown);
      toast.show('Copied as Markdown.');
    } catch (error) {
      toast.show(describe(error, 'copy to the clipboard'), 'error');
    }
  }, [serialize, toast]);

  const insertMarkdown = useCallback(
    async (text: string) => {
      try {
        await run(
          'Pasting Markdown…',
          async (painted) => {
            // The upload code loads with the codec, on the first paste as Markdown.
            const [{ parseMarkdownFragment }, { keptImagesMessage, uploadInlineImages }] =
              await Promise.all([
                loadMarkdownCodec(),
                import('../uploads/uploadInlineImages.ts'),
                painted,
              ]);
            const inline = await uploadInlineImages(parseMarkdownFragment(text, editor.schema));
            insertDocument(editor, inline.doc);
            if (inline.kept > 0) toast.show(keptImagesMessage(inline.kept, inline.reason), 'error');
          },
          { immediate: text.length > LARGE_TEXT },
        );
      } catch (error) {
        toast.show(describe(error, 'paste this as Markdown'), 'error');
      }
    },
    [editor, run, toast],
  );

  const pasteHint = useCallback(() => {
    toast.show(`Press ${formatShortcut('Mod-v')} to paste as Markdown.`);
  }, [toast]);

  return {
    /** Label of the running slow task, or null. */
    progress: progressLabel,
    exportFile,
    exportZip,
    copyMarkdown,
    insertMarkdown,
    pasteHint,
  };
}
