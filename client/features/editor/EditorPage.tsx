import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AppLayout } from '../../app/AppLayout.tsx';
import { AppMenu } from '../../app/AppMenu.tsx';
import { ErrorBoundary } from '../../components/ErrorBoundary.tsx';
import { InlineProgress } from '../../components/InlineProgress.tsx';
import { TitleField } from '../../components/TitleField.tsx';
import { useToast } from '../../components/toastContext.ts';
import { isApplePlatform } from '../../lib/platform.ts';
import { whenIdle } from '../../lib/schedule.ts';
import { Editor, useInkwellEditor } from './Editor.tsx';
import { prefetchMarkdownCodec } from './markdown/codec.ts';
import { isMarkdownFile } from './markdown/isMarkdownFile.ts';
import type { MarkdownTransferOptions } from './markdown/MarkdownTransfer.ts';
import { useMarkdownTransfer } from './markdown/useMarkdownTransfer.ts';
import { openLocalDocument, type OpenedDocument } from './persistence/openLocalDocument.ts';
import { useLocalAutosave } from './persistence/useLocalAutosave.ts';
import { EmptyDocumentHint } from './EmptyDocumentHint.tsx';
import { StatusBar } from './StatusBar.tsx';

// Dialogs are rarely opened, so they load on first use.
const ShortcutSheet = lazy(() =>
  import('./ShortcutSheet.tsx').then((module) => ({ default: module.ShortcutSheet })),
);
const ConfirmDialog = lazy(() =>
  import('../../components/ConfirmDialog.tsx').then((module) => ({
    default: module.ConfirmDialog,
  })),
);

const NO_MARKDOWN: MarkdownTransferOptions = {
  onMarkdownText: () => undefined,
  onMarkdownFile: () => undefined,
  onPasteHint: () => undefined,
};

function isShortcutSheetKey(event: KeyboardEvent): boolean {
  const mod = isApplePlatform() ? event.metaKey : event.ctrlKey;
  return mod && !event.altKey && (event.key === '/' || event.code === 'Slash');
}

/** The editor screen: opens the document kept on this device, then shows it. */
export function EditorPage() {
  const [opened, setOpened] = useState<OpenedDocument | null>(null);

  useEffect(() => {
    let live = true;
    void openLocalDocument().then((document) => {
      if (live) setOpened(document);
    });
    return () => {
      live = false;
    };
  }, []);

  if (!opened) return <AppLayout />;
  return <DocumentScreen opened={opened} />;
}

/** The top bar, the editor, its status bar and dialogs for one opened document. */
function DocumentScreen({ opened }: { opened: OpenedDocument }) {
  const toast = useToast();
  const [title, setTitle] = useState(opened.title);
  const titleRef = useRef(opened.title);
  const markdown = useRef<MarkdownTransferOptions>(NO_MARKDOWN);
  const fileInput = useRef<HTMLInputElement>(null);
  const [sheetOpen, setSheetOpen] = useState(false);

  const editor = useInkwellEditor({ content: opened.content, markdown });
  const getTitle = useCallback(() => titleRef.current, []);
  const { state: saveState, titleChanged } = useLocalAutosave(editor, getTitle, opened.canSave);

  const changeTitle = useCallback(
    (next: string) => {
      titleRef.current = next;
      setTitle(next);
      titleChanged();
    },
    [titleChanged],
  );
  const titleAccess = useMemo(() => ({ get: getTitle, set: changeTitle }), [getTitle, changeTitle]);
  const transfer = useMarkdownTransfer(editor, titleAccess);
  const { insertMarkdown, importFile, pasteHint, cancelImport } = transfer;

  useEffect(() => {
    markdown.current = {
      onMarkdownText: (text) => void insertMarkdown(text),
      onMarkdownFile: (file) => void importFile(file),
      onPasteHint: pasteHint,
    };
  }, [insertMarkdown, importFile, pasteHint]);

  // Markdown in and out is what Inkwell is for: have the codec ready before the first import.
  useEffect(() => whenIdle(prefetchMarkdownCodec, 3000), []);

  useEffect(() => {
    if (opened.problem) toast.show(opened.problem, 'error');
  }, [opened.problem, toast]);

  useEffect(() => {
    document.title = `${title.trim() || 'Untitled'} – Inkwell`;
  }, [title]);

  // A dialog whose code could not be fetched closes with a message; the next one tries afresh.
  const [dialogKey, setDialogKey] = useState(0);
  const dialogFailed = useCallback(() => {
    toast.show("Couldn't open this dialog. Check your connection and try again.", 'error');
    setSheetOpen(false);
    cancelImport();
    setDialogKey((key) => key + 1);
  }, [toast, cancelImport]);

  // A file dropped beside the editor would make the browser open it in place of the app:
  // import it when it is Markdown, and ignore anything else.
  useEffect(() => {
    const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    const onDragOver = (event: DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      if (event.defaultPrevented || !hasFiles(event)) return;
      event.preventDefault();
      const file = [...(event.dataTransfer?.files ?? [])].find(isMarkdownFile);
      if (file) void importFile(file);
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, [importFile]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isShortcutSheetKey(event)) return;
      event.preventDefault();
      setSheetOpen((open) => !open);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <AppLayout
      title={
        <TitleField
          value={title}
          onChange={changeTitle}
          onEnter={() => editor.commands.focus('start')}
        />
      }
      actions={
        <>
          {transfer.progress ? <InlineProgress label={transfer.progress} /> : null}
          <AppMenu
            onOpen={prefetchMarkdownCodec}
            onImport={() => fileInput.current?.click()}
            onExport={() => void transfer.exportFile()}
            onCopy={() => void transfer.copyMarkdown()}
            onPaste={() => editor.commands.pasteMarkdown()}
            onShortcuts={() => setSheetOpen(true)}
          />
        </>
      }
    >
      <Editor editor={editor}>
        <EmptyDocumentHint
          editor={editor}
          onImport={() => fileInput.current?.click()}
          onShortcuts={() => setSheetOpen(true)}
        />
      </Editor>
      <StatusBar editor={editor} saveState={saveState} />
      <input
        ref={fileInput}
        className="ink-visually-hidden"
        type="file"
        tabIndex={-1}
        accept=".md,.markdown,.txt,text/markdown,text/plain"
        aria-label="Import Markdown file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Clear the input so that choosing the same file again fires a change.
          event.target.value = '';
          if (file) void importFile(file);
        }}
      />
      <ErrorBoundary key={dialogKey} onError={dialogFailed}>
        <Suspense fallback={null}>
          {sheetOpen ? <ShortcutSheet open onClose={() => setSheetOpen(false)} /> : null}
          {transfer.pending ? (
            <ConfirmDialog
              open
              title="Replace this document?"
              message={`Importing “${transfer.pending.fileName}” replaces everything in this document.`}
              confirmLabel="Replace"
              onConfirm={transfer.confirmImport}
              onCancel={transfer.cancelImport}
            />
          ) : null}
        </Suspense>
      </ErrorBoundary>
    </AppLayout>
  );
}
