import { Extension, type AnyExtension } from '@tiptap/core';
// From their own entry points: the package's index holds every extension, UndoRedo included.
import { CharacterCount } from '@tiptap/extensions/character-count';
import { Dropcursor } from '@tiptap/extensions/drop-cursor';
import { Gapcursor } from '@tiptap/extensions/gap-cursor';
import { AiAssistant } from '../ai/aiTrigger.ts';
import { ActiveBlock } from './ActiveBlock.ts';
import { BlockChunks } from './chunks/BlockChunks.ts';
import { BlockPlaceholder } from './chunks/BlockPlaceholder.ts';
import { ClobberSafePaste } from './ClobberSafePaste.ts';
import { contentExtensions } from '../../../common/editor/extensions.ts';
import { HighlightedCodeBlock } from './code/HighlightedCodeBlock.ts';
import { DepthLimit } from './depthLimit.ts';
import { MarkdownTransfer, type MarkdownTransferOptions } from './markdown/MarkdownTransfer.ts';
import { MenuShortcuts } from './menus/MenuShortcuts.ts';
import { HtmlSanitizerLoader, sanitizeIfReady } from './nodeViews/htmlSanitizer.ts';
import { withHtmlNodeViews } from './nodeViews/htmlNodeViews.ts';
import { withCalloutView } from './dialects/callout/withCalloutView.ts';
import { withFrontMatterView } from './dialects/frontMatter/withFrontMatterView.ts';
import { InlineDialectBehaviour, withInlineDialectViews } from './dialects/inlineDialectViews.ts';
import { SlashCommand } from './slash/SlashCommand.ts';
import { EditableTable } from './tables/EditableTable.ts';
import { ImageUpload } from './uploads/ImageUpload.ts';

/**
 * The one shortcut of the sheet that no other extension binds: Mod-Shift-X for strike, Google
 * Docs' habit, beside Tiptap's Mod-Shift-S. (Mod-K and Alt-F10 come with the menus.)
 */
export const InkwellKeymap = Extension.create({
  name: 'inkwellKeymap',

  addKeyboardShortcuts() {
    return {
      'Mod-Shift-x': () => this.editor.commands.toggleStrike(),
    };
  },
});

/** Words are runs of non-space; CharacterCount's default splits on the space character only. */
const countWords = (text: string): number => text.match(/\S+/g)?.length ?? 0;

/** The placeholder of the empty line holding the cursor: a hint, or the heading's level. */
function placeholderFor({
  node,
}: {
  node: { type: { name: string }; attrs: Record<string, unknown> };
}) {
  if (node.type.name === 'heading') return `Heading ${String(node.attrs.level)}`;
  if (node.type.name === 'paragraph') return "Type '/' for commands…";
  return '';
}

/** Options of {@link editorExtensions}. */
export interface EditorExtensionOptions {
  /** Where pasted or dropped Markdown goes. */
  markdown: MarkdownTransferOptions;
  /** Told why a paste, drop or upload was refused (too deep, not an image…), for the writer. */
  onRefused?: (message: string) => void;
  /**
   * The editor's own undo (Tiptap's UndoRedo), for an editor outside collaboration (tests); none
   * when left out or false. The page's editor never has it: it is read-only until it is on the
   * shared document, where this undo would take back other writers' changes and collaboration
   * brings undo per writer instead (live/collab/Collaboration.ts). Passed in rather than imported here
   * so that prosemirror-history stays out of the page's first download.
   */
  undoRedo?: AnyExtension | false;
}

/**
 * How the browser draws a document, without editing it: the shared schema with a highlighting
 * code block, rendered HTML nodes, the dialects' views and plugins, and the chunks. The editor
 * starts with these; a version in the history panel is drawn with them alone, read-only.
 */
export function documentViewExtensions(): AnyExtension[] {
  return [
    ...withInlineDialectViews(
      withFrontMatterView(
        withCalloutView(
          withHtmlNodeViews(
            contentExtensions({
              codeBlock: HighlightedCodeBlock,
              table: EditableTable,
              sanitizeHtml: sanitizeIfReady,
              document: false,
            }),
          ),
        ),
      ),
    ),
    InlineDialectBehaviour,
    BlockChunks,
  ];
}

/**
 * Everything the browser editor runs: {@link documentViewExtensions} plus the editing behaviour
 * that only a live editor needs.
 */
export function editorExtensions(options: EditorExtensionOptions): AnyExtension[] {
  return [
    ...documentViewExtensions(),
    BlockPlaceholder.configure({ placeholder: placeholderFor }),
    CharacterCount.configure({ wordCounter: countWords }),
    ...(options.undoRedo ? [options.undoRedo] : []),
    Dropcursor.configure({ color: false, width: 2, class: 'ink-dropcursor' }),
    Gapcursor,
    HtmlSanitizerLoader,
    MarkdownTransfer.configure(options.markdown),
    ClobberSafePaste,
    DepthLimit.configure({ onRefused: options.onRefused ?? (() => undefined) }),
    ImageUpload.configure({ onError: options.onRefused ?? (() => undefined) }),
    SlashCommand,
    MenuShortcuts,
    InkwellKeymap,
    ActiveBlock,
    AiAssistant,
  ];
}
