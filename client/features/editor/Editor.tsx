import type { ReactNode } from 'react';
import type { AnyExtension } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import {
  EditorContent,
  useEditor,
  type Editor as TiptapEditor,
  type UseEditorOptions,
} from '@tiptap/react';
import { Component, useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import { ErrorBoundary } from '../../components/ErrorBoundary.tsx';
import { editorExtensions } from './editorExtensions.ts';
// The bubble menus load on the first selection (see there why that is safe for the slash menu).
import { LazyEditorMenus } from './menus/LazyEditorMenus.tsx';
import type { MarkdownTransferOptions } from './markdown/MarkdownTransfer.ts';
import { openSharedDocument } from '../live/collab/openWhenMounted.ts';
import { openIn } from './openIn.ts';

/** Options of {@link useInkwellEditor}. */
export interface InkwellEditorOptions {
  /**
   * Where pasted and dropped Markdown goes. A ref, because the handlers need the editor this
   * hook creates; the editor calls whatever the ref holds at the time.
   */
  markdown: RefObject<MarkdownTransferOptions>;
  /** Shows the writer why a paste or drop was refused; the latest one given is called. */
  onRefused: (message: string) => void;
  /**
   * The shared document's extensions (live/collab/sharedDocument.ts), once synced: the editor is made
   * again on it, with undo per writer. Null before: the editor shows the saved copy read-only.
   */
  collab: { extensions: AnyExtension[]; readOnly: boolean } | null;
}

/**
 * Creates the page's editor: first read-only on the saved copy, then once more on the shared
 * document when it has synced ({@link Editor} shows it and opens the saved copy). The options
 * object is built once per phase:
 * useEditor compares options on every render and would otherwise push them into the view each
 * time the page re-renders (for instance per keystroke in the title).
 */
export function useInkwellEditor({
  markdown,
  onRefused,
  collab,
}: InkwellEditorOptions): TiptapEditor {
  const refused = useRef(onRefused);
  useLayoutEffect(() => {
    refused.current = onRefused;
  }, [onRefused]);
  // Made again only when the shared document arrives (useEditor's dependencies below).
  const options = useMemo<UseEditorOptions>(
    () => ({
      // Created empty: the document is opened once the view is in the page (see below); on a
      // shared document, the binding opens it.
      content: null,
      editable: collab ? !collab.readOnly : false,
      immediatelyRender: true,
      shouldRerenderOnTransaction: false,
      // Tiptap's base styles are in styles/prosemirror.css: an injected <style> breaks under CSP.
      injectCSS: false,
      // docs/PRODUCT.md "Markdown": pasted text is not transformed. Tiptap's paste rules would turn a
      // pasted `**x**` into bold; Markdown is converted only by "Paste as Markdown".
      enablePasteRules: false,
      // Tiptap's "delete" event, which nothing here listens to, costs a timer and a walk of each
      // transaction's steps after every keystroke.
      enableCoreExtensions: { delete: false },
      extensions: [
        // No undoRedo: read-only on the saved copy, then undo per writer on the shared document
        // (live/collab/Collaboration.ts).
        ...editorExtensions({
          markdown: {
            onMarkdownText: (text) => markdown.current.onMarkdownText(text),
            onMarkdownFile: (file, companions) => markdown.current.onMarkdownFile(file, companions),
            onPasteHint: () => markdown.current.onPasteHint(),
          },
          onRefused: (message) => refused.current(message),
        }),
        ...(collab?.extensions ?? []),
      ],
      editorProps: {
        // Keep the caret clear of the sticky top bar and status bar when typing scrolls the page.
        scrollMargin: { top: 72, bottom: 56, left: 8, right: 8 },
        scrollThreshold: { top: 72, bottom: 56, left: 8, right: 8 },
        attributes: {
          class: 'ink-prose',
          'aria-label': 'Document',
          'aria-multiline': 'true',
          role: 'textbox',
        },
      },
    }),
    [collab, markdown],
  );
  return useEditor(options, [options]);
}

/** Props of {@link OpenOnceMounted}. */
interface OpenOnceMountedProps {
  editor: TiptapEditor;
  content: ProseMirrorNode | null;
  onOpened?: () => void;
}

/**
 * Opens `content` in `editor` once per editor, right after EditorContent has mounted the view (or
 * the shared document, for an editor on one: live/collab/openWhenMounted.ts).
 * Mounting hands the view its node views, which makes ProseMirror draw the whole document again:
 * opening after it draws a large document once instead of twice. A class rendered after
 * EditorContent, because its componentDidMount is the one hook sure to run after EditorContent's
 * own: React runs layout effects and componentDidMount in tree order, but Preact (which the client
 * ships, see vite.config.ts) runs every layout effect of a render before any componentDidMount.
 */
class OpenOnceMounted extends Component<OpenOnceMountedProps> {
  private openedIn: TiptapEditor | null = null;

  override componentDidMount(): void {
    this.open();
  }

  override componentDidUpdate(): void {
    this.open();
  }

  private open(): void {
    const { editor, content, onOpened } = this.props;
    if (this.openedIn === editor || editor.isDestroyed) return;
    this.openedIn = editor;
    if (content) openIn(editor, content);
    else openSharedDocument(editor);
    onOpened?.();
  }

  override render(): null {
    return null;
  }
}

/** Props of {@link Editor}. */
export interface EditorProps {
  /** The editor from {@link useInkwellEditor}. */
  editor: TiptapEditor;
  /**
   * The document to open, in the shared schema (read once per editor, when it is first shown);
   * null for an editor on a shared document, whose binding opens the shared content then.
   */
  content: ProseMirrorNode | null;
  /** Called once the document is in the editor. */
  onOpened?: () => void;
  /** Shown over the document's top, such as the hint on an empty document. */
  children?: ReactNode;
}

const editorKeys = new WeakMap<TiptapEditor, number>();
let nextEditorKey = 0;

/** A key per editor instance, so that React mounts each one's view afresh. */
function editorKey(editor: TiptapEditor): number {
  let key = editorKeys.get(editor);
  if (key === undefined) {
    key = nextEditorKey += 1;
    editorKeys.set(editor, key);
  }
  return key;
}

/** The document surface with its floating menus. */
export function Editor({ editor, content, onOpened, children }: EditorProps) {
  return (
    <div className="ink-editor">
      {/* Keyed by editor: the page makes a second one on the shared document. */}
      <EditorContent key={editorKey(editor)} editor={editor} className="ink-editor__content" />
      <OpenOnceMounted editor={editor} content={content} onOpened={onOpened} />
      {children}
      <ErrorBoundary>
        <LazyEditorMenus editor={editor} />
      </ErrorBoundary>
    </div>
  );
}
