import type { Editor } from '@tiptap/core';
import { useCallback, useState } from 'react';
import { MarkdownImportError } from '../../../../common/editor/markdown/decode.ts';
import { useToast } from '../../../components/toastContext.ts';
import { downloadText, fileNameForTitle } from '../../../lib/download.ts';
import { formatShortcut } from '../../../lib/platform.ts';
import { afterPaint } from '../../../lib/schedule.ts';
import { useProgress } from '../../../lib/useProgress.ts';
import { insertDocument, replaceDocument } from './applyMarkdown.ts';
import { loadMarkdownCodec } from './codec.ts';
import { titleFromFileName } from './isMarkdownFile.ts';

/** Above this many characters, parsing blocks long enough to show progress at once. */
const LARGE_TEXT = 200_000;
/** Above this many document positions, serialising is slow enough to show progress at once. */
const LARGE_DOC = 400_000;

/** An import waiting for the writer to confirm replacing a non-empty document. */
export interface PendingImport {
  /** The file's name, shown in the question. */
  fileName: string;
  /** The decoded Markdown. */
  text: string;
}

/** What the page needs from the document: its title, to name exports and set on import. */
export interface TitleAccess {
  /** The current title. */
  get: () => string;
  /** Sets the title (on import, from the file name). */
  set: (title: string) => void;
}

function describe(error: unknown, action: string): string {
  if (error instanceof MarkdownImportError) return error.message;
  return `Couldn't ${action}. Please try again.`;
}

/**
 * Import, export, copy and paste of Markdown for one editor, with the confirmation before
 * replacing a document, progress for slow work and errors as alerts. A failure leaves the
 * document exactly as it was: nothing is applied until parsing has succeeded.
 */
export function useMarkdownTransfer(editor: Editor, title: TitleAccess) {
  const toast = useToast();
  const { label: progressLabel, run } = useProgress();
  const [pending, setPending] = useState<PendingImport | null>(null);

  const applyImport = useCallback(
    async ({ fileName, text }: PendingImport) => {
      try {
        await run(
          'Importing Markdown…',
          async () => {
            const { parseMarkdown } = await loadMarkdownCodec();
            // Marks for the performance panel and the import benchmark.
            performance.mark('inkwell:import:start');
            const doc = parseMarkdown(text, editor.schema);
            performance.mark('inkwell:import:parsed');
            replaceDocument(editor, doc);
            performance.mark('inkwell:import:applied');
            title.set(titleFromFileName(fileName));
          },
          { immediate: text.length > LARGE_TEXT },
        );
      } catch (error) {
        toast.show(describe(error, 'import this file'), 'error');
      }
    },
    [editor, run, title, toast],
  );

  const importFile = useCallback(
    async (file: File) => {
      let text: string;
      try {
        text = await run('Reading file…', async () => {
          const { checkMarkdownFileSize, decodeMarkdownFile } = await loadMarkdownCodec();
          // A huge file is refused by its size, before the browser reads it into memory.
          checkMarkdownFileSize(file.size);
          return decodeMarkdownFile(new Uint8Array(await file.arrayBuffer()));
        });
      } catch (error) {
        toast.show(describe(error, 'read this file'), 'error');
        return;
      }
      const request = { fileName: file.name, text };
      if (editor.isEmpty) await applyImport(request);
      else setPending(request);
    },
    [applyImport, editor, run, toast],
  );

  const confirmImport = useCallback(() => {
    const request = pending;
    setPending(null);
    // Let the dialog close and paint before a large parse blocks the page.
    if (request) void afterPaint().then(() => applyImport(request));
  }, [applyImport, pending]);

  const cancelImport = useCallback(() => setPending(null), []);

  const serialize = useCallback(
    (label: string) =>
      run(
        label,
        async () => {
          const { serializeMarkdown } = await loadMarkdownCodec();
          return serializeMarkdown(editor.state.doc);
        },
        { immediate: editor.state.doc.content.size > LARGE_DOC },
      ),
    [editor, run],
  );

  const exportFile = useCallback(async () => {
    try {
      const markdown = await serialize('Exporting Markdown…');
      downloadText(fileNameForTitle(title.get(), 'md'), markdown, 'text/markdown;charset=utf-8');
    } catch (error) {
      toast.show(describe(error, 'export this document'), 'error');
    }
  }, [serialize, title, toast]);

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
          async () => {
            const { parseMarkdown } = await loadMarkdownCodec();
            insertDocument(editor, parseMarkdown(text, editor.schema));
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
    /** The import waiting for confirmation, or null. */
    pending,
    importFile,
    confirmImport,
    cancelImport,
    exportFile,
    copyMarkdown,
    insertMarkdown,
    pasteHint,
  };
}
