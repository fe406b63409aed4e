import type { Editor, JSONContent, Range } from '@tiptap/core';
import { NodeSelection, TextSelection } from '@tiptap/pm/state';
import { openAiMenu, startAiCommand } from '../../ai/aiTrigger.ts';
import { MATH_SLASH_ITEMS } from '../dialects/math/mathSlashItems.ts';
import { BLOCK_TYPES, currentBlockType, turnInto, type BlockTypeId } from '../menus/blockTypes.ts';
import { pickImages } from '../uploads/ImageUpload.ts';
import { readImageInput, readVideoInput } from './blockInputs.ts';
import { CODE_LANGUAGES, languageInfo } from './codeLanguages.ts';
import { filterSlashItems, type Searchable } from './filterSlashItems.ts';
import { openBlockDialog } from './openBlockDialog.ts';
import { calloutSlashItems } from '../dialects/callout/calloutSlashItems.ts';
import { frontMatterSlashItems } from '../dialects/frontMatter/frontMatterSlashItems.ts';

/** One entry of the slash menu. */
export interface SlashItem extends Searchable {
  /** Stable id, also the option's DOM id suffix. */
  id: string;
  /** One line under the title. */
  description: string;
  /** A short glyph shown in the item's tile. */
  icon: string;
  /** Replaces the typed `/query` with the block. */
  run: (context: { editor: Editor; range: Range }) => void;
}

/** The typed `/query` is removed and the cursor's block becomes `target`. */
const turnIntoItem = (
  target: BlockTypeId,
  fields: Pick<SlashItem, 'title' | 'description' | 'keywords' | 'icon'>,
): SlashItem => ({
  id: target,
  ...fields,
  run: ({ editor, range }) => {
    const current = currentBlockType(editor.state.selection);
    turnInto(editor.chain().focus().deleteRange(range), target, current).run();
  },
});

const headingItems = BLOCK_TYPES.filter((type) => type.id.startsWith('heading')).map((type, i) =>
  turnIntoItem(type.id, {
    title: type.label,
    description: i === 0 ? 'Large section title' : `Level ${i + 1} section title`,
    keywords: [`h${i + 1}`, '#'.repeat(i + 1), 'title', 'heading'],
    icon: `H${i + 1}`,
  }),
);

/**
 * Inserts an image or video and puts the cursor in the paragraph after it (adding one if needed),
 * so that typing goes on below instead of replacing the selected node.
 */
function insertMediaBlock(editor: Editor, content: JSONContent) {
  editor
    .chain()
    .focus()
    .insertContent(content)
    .command(({ tr }) => {
      const paragraph = editor.schema.nodes.paragraph;
      if (!(tr.selection instanceof NodeSelection) || !paragraph) return true;
      const after = tr.selection.to;
      if (!tr.doc.resolve(after).nodeAfter?.isTextblock) tr.insert(after, paragraph.create());
      tr.setSelection(TextSelection.create(tr.doc, after + 1));
      return true;
    })
    .run();
}

const insertCodeBlock = (editor: Editor, language: string | null) =>
  editor
    .chain()
    .focus()
    .setCodeBlock(language ? { language } : undefined)
    .run();

const languageItems = CODE_LANGUAGES.map((lang): SlashItem => ({
  id: `code-${lang.value}`,
  title: `${lang.name} code block`,
  description: `Code with ${lang.name} highlighting`,
  keywords: [lang.value, ...lang.aliases],
  icon: '{}',
  onlyOnPrefix: true,
  run: ({ editor, range }) => {
    editor.chain().focus().deleteRange(range).run();
    insertCodeBlock(editor, lang.value);
  },
}));

/** The assistant's entries: they work on the text around the cursor, not on a block type. */
const aiItems: SlashItem[] = [
  {
    id: 'ai-continue',
    title: 'Continue writing',
    description: 'AI writes on from the text above',
    keywords: ['ai', 'continue', 'write', 'generate', 'complete'],
    icon: '✦',
    run: ({ editor, range }) => {
      editor.chain().focus().deleteRange(range).run();
      startAiCommand(editor, { command: 'continue' });
    },
  },
  {
    id: 'ai-ask',
    title: 'Ask AI',
    description: 'Tell the AI what to write or change',
    keywords: ['ai', 'ask', 'assistant', 'prompt', 'generate'],
    icon: '✦',
    run: ({ editor, range }) => {
      editor.chain().focus().deleteRange(range).run();
      openAiMenu(editor, 'ask');
    },
  },
];

/** Every block of the schema the slash menu can insert, in menu order, then the AI entries. */
export const SLASH_ITEMS: readonly SlashItem[] = [
  turnIntoItem('paragraph', {
    title: 'Text',
    description: 'Plain paragraph',
    keywords: ['paragraph', 'plain', 'p'],
    icon: 'T',
  }),
  ...headingItems,
  turnIntoItem('bulletList', {
    title: 'Bullet list',
    description: 'List with bullets',
    keywords: ['ul', 'unordered', 'bullets', '-'],
    icon: '•',
  }),
  turnIntoItem('orderedList', {
    title: 'Numbered list',
    description: 'List with numbers',
    keywords: ['ol', 'ordered', 'numbers', '1.'],
    icon: '1.',
  }),
  turnIntoItem('taskList', {
    title: 'Task list',
    description: 'Checklist of to-dos',
    keywords: ['todo', 'to-do', 'checkbox', 'checklist', 'task', '[]'],
    icon: '✓',
  }),
  turnIntoItem('blockquote', {
    title: 'Quote',
    description: 'Quoted passage',
    keywords: ['blockquote', 'citation', '>'],
    icon: '❝',
  }),
  ...calloutSlashItems,
  {
    id: 'codeBlock',
    title: 'Code block',
    description: 'Code, then choose its language',
    keywords: ['code', 'pre', 'snippet', '```', 'fence'],
    icon: '{}',
    run: ({ editor, range }) => {
      editor.chain().focus().deleteRange(range).run();
      void openBlockDialog(editor, {
        title: 'Code block',
        submitLabel: 'Insert code block',
        fields: [
          {
            name: 'language',
            label: 'Language (leave empty for plain text)',
            placeholder: 'Plain text',
            suggestions: CODE_LANGUAGES.map((lang) => lang.name),
          },
        ],
        submit: (values) => {
          insertCodeBlock(editor, languageInfo(values.language ?? ''));
          return null;
        },
      });
    },
  },
  ...languageItems,
  {
    id: 'table',
    title: 'Table',
    description: '3 × 3 table with a header row',
    keywords: ['grid', 'columns', 'rows', 'spreadsheet'],
    icon: '⊞',
    // At once, so that what is typed next goes into its first cell; its editing (Tab, cell
    // selection) loads with it, and a Tab pressed before that waits for it (EditableTable.ts).
    run: ({ editor, range }) =>
      editor
        .chain()
        .focus()
        .deleteRange(range)
        .insertTable({ rows: 3, cols: 3, withHeaderRow: true })
        .run(),
  },
  {
    id: 'divider',
    title: 'Divider',
    description: 'Horizontal line between sections',
    keywords: ['hr', 'rule', 'horizontal', 'separator', 'line', '---'],
    icon: '—',
    run: ({ editor, range }) => editor.chain().focus().deleteRange(range).setHorizontalRule().run(),
  },
  {
    id: 'image',
    title: 'Image',
    description: 'Picture from a web address',
    keywords: ['picture', 'photo', 'img', 'url', 'media'],
    icon: '▣',
    run: ({ editor, range }) => {
      editor.chain().focus().deleteRange(range).run();
      void openBlockDialog(editor, {
        title: 'Insert image',
        submitLabel: 'Insert image',
        fields: [
          {
            name: 'url',
            label: 'Image address',
            placeholder: 'https://…',
            inputMode: 'url',
          },
          { name: 'alt', label: 'Alt text', placeholder: 'Describe the image' },
        ],
        submit: (values) => {
          const input = readImageInput(values.url ?? '', values.alt ?? '');
          if (!input.ok) return input.message;
          insertMediaBlock(editor, { type: 'image', attrs: input.attrs });
          return null;
        },
      });
    },
  },
  {
    id: 'image-upload',
    title: 'Upload image',
    description: 'Picture from this device',
    keywords: ['picture', 'photo', 'img', 'file', 'upload', 'media', 'screenshot'],
    icon: '⇪',
    run: ({ editor, range }) => {
      editor.chain().focus().deleteRange(range).run();
      pickImages((files) => editor.chain().focus().uploadImages(files).run());
    },
  },
  {
    id: 'youtube',
    title: 'YouTube video',
    description: 'Embedded video from a YouTube link',
    keywords: ['video', 'youtube', 'embed', 'movie', 'media'],
    icon: '▶\uFE0E',
    run: ({ editor, range }) => {
      editor.chain().focus().deleteRange(range).run();
      void openBlockDialog(editor, {
        title: 'Embed YouTube video',
        submitLabel: 'Embed video',
        fields: [
          {
            name: 'url',
            label: 'YouTube address',
            placeholder: 'https://youtu.be/…',
            inputMode: 'url',
          },
        ],
        submit: (values) => {
          const input = readVideoInput(values.url ?? '');
          if (!input.ok) return input.message;
          insertMediaBlock(editor, { type: 'youtube', attrs: input.attrs });
          return null;
        },
      });
    },
  },
  ...frontMatterSlashItems,
  ...MATH_SLASH_ITEMS,
  ...aiItems,
];

/** The slash menu's items for what was typed after `/`. */
export function slashItemsFor(query: string): SlashItem[] {
  return filterSlashItems(SLASH_ITEMS, query);
}
