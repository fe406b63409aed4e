import { useCallback } from 'react';
import { DEFAULT_LIMITS } from '../../../common/api/limits.ts';
import { inkwellSchema } from '../../../common/editor/extensions.ts';
import { MarkdownImportError } from '../../../common/editor/markdown/decode.ts';
import { documentPath, navigate } from '../../app/router.ts';
import { useToast } from '../../components/toastContext.ts';
import { ApiError } from '../../lib/api.ts';
import { useProgress } from '../../lib/useProgress.ts';
import { loadMarkdownCodec } from '../editor/markdown/codec.ts';
import { titleFromFileName } from '../editor/markdown/isMarkdownFile.ts';
import { useDocumentList } from './documentListContext.ts';
import { createDocument, summaryOf } from './documentsApi.ts';
import { failureMessage } from './useDocumentActions.ts';

/** Above this many characters, parsing blocks long enough to show progress at once. */
const LARGE_TEXT = 200_000;

/**
 * Imports a Markdown file as a new document: read and parsed in the browser with the codec,
 * created on the server with the file's name as its title, then opened. Nothing is created
 * unless the whole file parsed.
 */
export function useImportMarkdown() {
  const toast = useToast();
  const list = useDocumentList();
  const { label, run } = useProgress();

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
        const message = error instanceof MarkdownImportError ? error.message : null;
        toast.show(message ?? "Couldn't read this file. Please try again.", 'error');
        return;
      }
      try {
        const document = await run(
          'Importing Markdown…',
          async () => {
            const { parseMarkdown } = await loadMarkdownCodec();
            // Marks for the performance panel and the import benchmark.
            performance.mark('inkwell:import:start');
            const doc = parseMarkdown(text, inkwellSchema());
            performance.mark('inkwell:import:parsed');
            const title = titleFromFileName(file.name).slice(0, DEFAULT_LIMITS.titleChars);
            return createDocument({ title, content: JSON.stringify(doc.toJSON()) });
          },
          { immediate: text.length > LARGE_TEXT },
        );
        list.add(summaryOf(document));
        navigate(documentPath(document.id));
      } catch (error) {
        if (error instanceof MarkdownImportError) {
          toast.show(error.message, 'error');
          return;
        }
        const message = failureMessage(error, `import “${file.name}”`);
        if (!message) return;
        // The server's sentence (too large, invalid) needs the file named; ours names it.
        const shown =
          error instanceof ApiError ? `Couldn't import “${file.name}”: ${message}` : message;
        toast.show(shown, 'error');
      }
    },
    [list, run, toast],
  );

  return {
    /** Label of the running slow step, or null. */
    progress: label,
    importFile,
  };
}
