import { getSchema, type AnyExtension } from '@tiptap/core';
import type { Schema } from '@tiptap/pm/model';
import StarterKit from '@tiptap/starter-kit';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import { TableRow } from '@tiptap/extension-table/row';
// From their own entry points: the package's index also holds font, size and line-height
// extensions, which its top-level calls keep in the bundle.
import { TextStyle } from '@tiptap/extension-text-style/text-style';
import { BulletList, OrderedList } from '@tiptap/extension-list';
import { Code } from './nodes/Code.ts';
import { Color } from './nodes/Color.ts';
import { TextAlign } from './nodes/TextAlign.ts';
import { CodeBlock } from './nodes/CodeBlock.ts';
import { HtmlBlock } from './nodes/HtmlBlock.ts';
import { HtmlInline } from './nodes/HtmlInline.ts';
import type { HtmlNodeOptions } from './nodes/htmlNode.ts';
import { Image, InlineImage } from './nodes/Image.ts';
import { Link } from './nodes/Link.ts';
import { Escaped } from './nodes/Escaped.ts';
import { LinkDefinitions } from './nodes/LinkDefinitions.ts';
import { MarkdownSyntax } from './nodes/MarkdownSyntax.ts';
import { SoftBreak } from './nodes/SoftBreak.ts';
import { Table } from './nodes/Table.ts';
import { TableCell, TableHeader } from './nodes/TableCell.ts';
import { Video } from './nodes/Video.ts';
import { tightAttribute } from './nodes/tight.ts';
import { Callout } from './dialects/callout/Callout.ts';
import { FrontMatter, InkwellDocument } from './dialects/frontMatter/FrontMatter.ts';
import { InkHighlight } from './dialects/highlight/highlightMark.ts';
import { inlineDialectExtensions } from './dialects/inlineDialectNodes.ts';

/** Options that change how the schema's extensions behave in a live editor, never the schema. */
export interface ContentExtensionOptions {
  /** Replaces the code block (same name and attributes), e.g. with one that highlights. */
  codeBlock?: AnyExtension;
  /** Replaces the table (same name and attributes), e.g. with one that has editing plugins. */
  table?: AnyExtension;
  /** Sanitises raw HTML pasted into the editor; without it such HTML is dropped. */
  sanitizeHtml?: HtmlNodeOptions['sanitize'];
  /**
   * Leaves the document node out, for an editor that brings its own (the browser editor keeps
   * its blocks in chunks). The schema of what is stored and exchanged is always the default.
   */
  document?: false;
}

/**
 * Every content kind of docs/PRODUCT.md "Content", without React: the single source of the schema
 * for the browser, the server's validation and the Markdown codec.
 */
export function contentExtensions(options: ContentExtensionOptions = {}): AnyExtension[] {
  return [
    StarterKit.configure({
      // The document allows front matter before its blocks (InkwellDocument).
      document: false,
      codeBlock: false,
      code: false,
      bulletList: false,
      orderedList: false,
      heading: { levels: [1, 2, 3, 4, 5, 6] },
      // Inkwell's own link mark, below (same schema, without Tiptap's URL finder).
      link: false,
      undoRedo: false,
      trailingNode: false,
      dropcursor: false,
      gapcursor: false,
    }),
    Link,
    LinkDefinitions,
    MarkdownSyntax,
    Escaped,
    ...(options.document === false ? [] : [InkwellDocument]),
    FrontMatter,
    Callout,
    Code,
    SoftBreak,
    BulletList.extend({ addAttributes: () => ({ tight: tightAttribute }) }),
    OrderedList.extend({
      addAttributes() {
        return { ...this.parent?.(), tight: tightAttribute };
      },
    }),
    TaskList.extend({ addAttributes: () => ({ tight: tightAttribute }) }),
    TaskItem.configure({ nested: true }),
    options.codeBlock ?? CodeBlock,
    Image,
    InlineImage,
    Video,
    options.table ?? Table,
    TableRow,
    TableHeader,
    TableCell,
    TextStyle,
    Color,
    InkHighlight,
    TextAlign,
    options.sanitizeHtml ? HtmlBlock.configure({ sanitize: options.sanitizeHtml }) : HtmlBlock,
    options.sanitizeHtml ? HtmlInline.configure({ sanitize: options.sanitizeHtml }) : HtmlInline,
    ...inlineDialectExtensions,
  ];
}

let cached: Schema | undefined;

/** The ProseMirror schema of an Inkwell document (built once per process). */
export function inkwellSchema(): Schema {
  cached ??= getSchema(contentExtensions());
  return cached;
}
