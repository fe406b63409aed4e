import type { RefObject } from 'react';

/** Props of {@link MarkdownFileInput}. */
export interface MarkdownFileInputProps {
  /** Lets a menu item or button open the picker with `.click()`. */
  ref: RefObject<HTMLInputElement | null>;
  /** Receives the chosen file. */
  onFile: (file: File) => void;
}

/** The hidden file picker behind "Import Markdown…". */
export function MarkdownFileInput({ ref, onFile }: MarkdownFileInputProps) {
  return (
    <input
      ref={ref}
      className="ink-visually-hidden"
      type="file"
      tabIndex={-1}
      accept=".md,.markdown,.txt,text/markdown,text/plain"
      aria-label="Import Markdown file"
      onChange={(event) => {
        const file = event.target.files?.[0];
        // Clear the input so that choosing the same file again fires a change.
        event.target.value = '';
        if (file) onFile(file);
      }}
    />
  );
}
