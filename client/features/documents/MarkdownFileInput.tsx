import type { RefObject } from 'react';
import { isMarkdownFile } from '../editor/markdown/isMarkdownFile.ts';
import { warmUpMarkdownParser } from '../editor/markdown/codec.ts';
import { isImagePath } from '../vault/vaultImages.ts';

/** Props of {@link MarkdownFileInput}. */
export interface MarkdownFileInputProps {
  /** Lets a menu item or button open the picker with `.click()`. */
  ref: RefObject<HTMLInputElement | null>;
  /** Receives the chosen Markdown file and the files chosen with it (the images it links). */
  onFile: (file: File, companions: File[]) => void;
}

/**
 * The hidden file picker behind "Import Markdown…": one Markdown file, with the images it links
 * if the writer picks them too.
 */
export function MarkdownFileInput({ ref, onFile }: MarkdownFileInputProps) {
  return (
    <input
      ref={ref}
      className="ink-visually-hidden"
      type="file"
      tabIndex={-1}
      multiple
      accept=".md,.markdown,.txt,text/markdown,text/plain,.png,.jpg,.jpeg,.gif,.webp,.avif"
      aria-label="Import Markdown file"
      // The dialog opens: the parser warms up while the writer picks (codec.ts).
      onClick={warmUpMarkdownParser}
      onChange={(event) => {
        const files = [...(event.target.files ?? [])];
        // The Markdown file, by name; a .txt is taken as it always was, and images alone go
        // through the import too, which says why they cannot be read as Markdown.
        const file =
          files.find(isMarkdownFile) ?? files.find((f) => !isImagePath(f.name)) ?? files[0];
        // Clear the input so that choosing the same file again fires a change.
        event.target.value = '';
        if (file)
          onFile(
            file,
            files.filter((other) => other !== file),
          );
      }}
    />
  );
}
