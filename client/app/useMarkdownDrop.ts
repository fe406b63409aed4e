import { useEffect } from 'react';
import { prefetchMarkdownCodec, warmUpMarkdownParser } from '../features/editor/markdown/codec.ts';
import { isMarkdownFile } from '../features/editor/markdown/isMarkdownFile.ts';

/**
 * A file dropped outside the editor would make the browser open it in place of the app: a
 * Markdown file goes to `importFile` with the files dropped along (its images), anything else is
 * ignored. (Drops onto the editor are the editor's own.) Files dragged onto the page, here or
 * over the editor, start the codec loading and the parser warming up: the drop that may follow
 * imports without waiting for either.
 */
export function useMarkdownDrop(importFile: (file: File, companions: File[]) => void): void {
  useEffect(() => {
    const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    const onDragEnter = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      prefetchMarkdownCodec();
      warmUpMarkdownParser();
    };
    const onDragOver = (event: DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      if (event.defaultPrevented || !hasFiles(event)) return;
      event.preventDefault();
      const files = [...(event.dataTransfer?.files ?? [])];
      const file = files.find(isMarkdownFile);
      if (file)
        importFile(
          file,
          files.filter((other) => other !== file),
        );
    };
    // Captured: the editor's own handling of a drag over it must not hide it.
    window.addEventListener('dragenter', onDragEnter, true);
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onDragEnter, true);
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, [importFile]);
}
