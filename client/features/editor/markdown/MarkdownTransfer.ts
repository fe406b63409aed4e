import { Extension } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { isApplePlatform } from '../../../lib/platform.ts';
import { isMarkdownFile } from './isMarkdownFile.ts';
import { PasteArm } from './PasteArm.ts';

/** Callbacks through which the editor hands Markdown to the page. */
export interface MarkdownTransferOptions {
  /** Receives clipboard text that the writer asked to paste as Markdown. */
  onMarkdownText: (text: string) => void;
  /** Receives a Markdown file dropped onto the editor, and the files dropped with it (its images). */
  onMarkdownFile: (file: File, companions: File[]) => void;
  /** Called when the clipboard cannot be read, so the writer should press paste instead. */
  onPasteHint: () => void;
}

/** Per-editor state of {@link MarkdownTransfer}. */
export interface MarkdownTransferStorage {
  /** Whether the next paste is Markdown. */
  arm: PasteArm;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    markdownTransfer: {
      /** Pastes the clipboard as Markdown: reads it when allowed, else takes the next paste. */
      pasteMarkdown: () => ReturnType;
    };
  }
  interface Storage {
    markdownTransfer: MarkdownTransferStorage;
  }
}

/** How long a request waits for the writer's own paste when the clipboard cannot be read. */
const WAIT_FOR_PASTE_MS = 15_000;
/** How long after Mod-Shift-V the browser's own paste event may take before we read instead. */
const NATIVE_PASTE_MS = 150;

function isPasteMarkdownKey(event: KeyboardEvent): boolean {
  const mod = isApplePlatform() ? event.metaKey : event.ctrlKey;
  return (
    mod &&
    event.shiftKey &&
    !event.altKey &&
    (event.key.toLowerCase() === 'v' || event.code === 'KeyV')
  );
}

/**
 * Paste as Markdown (Mod-Shift-V and the `pasteMarkdown` command) and import of a `.md` file
 * dropped onto the editor. Ordinary paste and drop are left alone.
 *
 * Mod-Shift-V is not intercepted: Chromium and Firefox answer it with a plain-text paste event,
 * the most reliable way to get the clipboard, which is then read as Markdown. Where no paste
 * event follows (Safari), the clipboard is read through the async Clipboard API; where that is
 * refused, the writer is asked to press paste, and that paste is read as Markdown.
 */
export const MarkdownTransfer = Extension.create<MarkdownTransferOptions, MarkdownTransferStorage>({
  name: 'markdownTransfer',
  // Before the link and code block paste handlers, which would otherwise take the text.
  priority: 1000,

  addOptions() {
    return {
      onMarkdownText: () => undefined,
      onMarkdownFile: () => undefined,
      onPasteHint: () => undefined,
    };
  },

  addStorage() {
    return { arm: new PasteArm() };
  },

  addCommands() {
    return {
      pasteMarkdown:
        () =>
        ({ dispatch, view }) => {
          if (dispatch) {
            view.focus();
            this.storage.arm.arm(WAIT_FOR_PASTE_MS);
            readClipboard(this.storage.arm, this.options);
          }
          return true;
        },
    };
  },

  addProseMirrorPlugins() {
    const { arm } = this.storage;
    const options = this.options;
    return [
      new Plugin({
        key: new PluginKey('inkwellMarkdownTransfer'),
        props: {
          handleKeyDown: (_view, event) => {
            if (!isPasteMarkdownKey(event)) return false;
            const token = arm.arm(WAIT_FOR_PASTE_MS);
            window.setTimeout(() => {
              if (arm.isArmed(token)) readClipboard(arm, options);
            }, NATIVE_PASTE_MS);
            return false;
          },
          handlePaste: (_view, event) => {
            const text = event.clipboardData?.getData('text/plain') ?? '';
            if (!text || !arm.take()) return false;
            options.onMarkdownText(text);
            return true;
          },
          handleDrop: (_view, event, _slice, moved) => {
            if (moved) return false;
            const files = [...(event.dataTransfer?.files ?? [])];
            const file = files.find(isMarkdownFile);
            if (!file) return false;
            event.preventDefault();
            options.onMarkdownFile(
              file,
              files.filter((other) => other !== file),
            );
            return true;
          },
        },
      }),
    ];
  },
});

/** Reads the clipboard for the current request; on refusal, waits for the writer's paste. */
function readClipboard(arm: PasteArm, options: MarkdownTransferOptions): void {
  const token = arm.arm(WAIT_FOR_PASTE_MS);
  const clipboard = navigator.clipboard as Clipboard | undefined;
  if (!clipboard?.readText) {
    options.onPasteHint();
    return;
  }
  clipboard.readText().then(
    (text) => {
      if (arm.take(token) && text) options.onMarkdownText(text);
    },
    () => {
      if (arm.isArmed(token)) options.onPasteHint();
    },
  );
}
