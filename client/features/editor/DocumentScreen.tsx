import type { Editor as TiptapEditor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SaveResult } from '../../../common/api/documents.ts';
import type { Role } from '../../../common/api/sharing.ts';
import { AppLayout } from '../../app/AppLayout.tsx';
import { AppMenu } from '../../app/AppMenu.tsx';
import { ErrorBoundary } from '../../components/ErrorBoundary.tsx';
import { InlineProgress } from '../../components/InlineProgress.tsx';
import { TitleField } from '../../components/TitleField.tsx';
import { useToast } from '../../components/toastContext.ts';
import { isApplePlatform } from '../../lib/platform.ts';
import { useSession } from '../auth/sessionContext.ts';
import { useDocumentList } from '../documents/documentListContext.ts';
import { summaryOf } from '../documents/documentsApi.ts';
import { excerptOf, sameExcerpt } from '../documents/excerptOf.ts';
import { MarkdownFileInput } from '../documents/MarkdownFileInput.tsx';
import { useDocumentActions } from '../documents/useDocumentActions.ts';
import { useImportMarkdown } from '../documents/useImportMarkdown.ts';
import { caretUserOf } from '../../../common/editor/collab/caretUser.ts';
import { Editor, useInkwellEditor } from './Editor.tsx';
import { WikilinkPanel } from './dialects/wikilink/WikilinkPanel.tsx';
import { EmptyDocumentHint } from './EmptyDocumentHint.tsx';
import { prefetchMarkdownCodec } from './markdown/codec.ts';
import type { MarkdownTransferOptions } from './markdown/MarkdownTransfer.ts';
import { useMarkdownTransfer } from './markdown/useMarkdownTransfer.ts';
import type { OpenedDocument } from '../live/persistence/openDocument.ts';
import { useLiveDocument } from '../live/persistence/useLiveDocument.ts';
import { PresenceStrip } from './PresenceStrip.tsx';
import { StatusBar } from './StatusBar.tsx';

// Dialogs are rarely opened, so they load on first use.
const ShortcutSheet = lazy(() =>
  import('./ShortcutSheet.tsx').then((module) => ({ default: module.ShortcutSheet })),
);
const ShareDialog = lazy(() =>
  import('../sharing/ShareDialog.tsx').then((module) => ({ default: module.ShareDialog })),
);
const HistoryPanel = lazy(() =>
  import('../history/HistoryPanel.tsx').then((module) => ({ default: module.HistoryPanel })),
);

function isShortcutSheetKey(event: KeyboardEvent): boolean {
  const mod = isApplePlatform() ? event.metaKey : event.ctrlKey;
  return mod && !event.altKey && (event.key === '/' || event.code === 'Slash');
}

/** The top bar, the editor, its status bar and dialogs for one opened document. */
export function DocumentScreen({ opened }: { opened: OpenedDocument }) {
  const toast = useToast();
  const list = useDocumentList();
  const { moveToTrash } = useDocumentActions();
  const { importFile, progress: importProgress } = useImportMarkdown();
  const id = opened.record.id;
  const [title, setTitle] = useState(opened.title);
  const titleRef = useRef(opened.title);
  const fileInput = useRef<HTMLInputElement>(null);
  const [sheetOpen, setSheetOpen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  // docs/PRODUCT.md "Sharing": a viewer reads, copies and exports; an editor edits and sees the
  // history but neither trashes nor shares. No role is the owner's own document.
  const role: Role = opened.record.role ?? 'owner';
  const canEdit = role !== 'viewer';
  const isOwner = role === 'owner';
  const markdown = useRef<MarkdownTransferOptions>({
    onMarkdownText: () => undefined,
    onMarkdownFile: (file, companions) => void importFile(file, companions),
    onPasteHint: () => undefined,
  });

  const showRefusal = useCallback((message: string) => toast.show(message, 'error'), [toast]);
  const getTitle = useCallback(() => titleRef.current, []);
  const showTitle = useCallback((next: string) => {
    titleRef.current = next;
    setTitle(next);
  }, []);

  // A document made in this tab (new, imported) reaches the server before it is connected; until
  // then there is nothing to ask about it (its backlinks would answer 404).
  const [onServer, setOnServer] = useState(!opened.creating);
  const showSaved = useCallback(
    (result: SaveResult, changes: { title?: string }) => {
      const { version, updatedAt } = result;
      list.update(id, { ...changes, version, updatedAt });
    },
    [id, list],
  );
  // The editor, for the set-aside copy's download (the handlers are made before it).
  const editorRef = useRef<TiptapEditor | null>(null);
  const handlers = useMemo(
    () => ({
      onCreated: (result: SaveResult) => {
        setOnServer(true);
        showSaved(result, {});
      },
      onTitleSaved: (saved: string, result: SaveResult) =>
        showSaved(result, { title: saved.trim() }),
      onSetAside: (update: Uint8Array, notice: string) =>
        toast.show(notice, 'error', {
          label: 'Download it as Markdown',
          run: () => {
            const schema = editorRef.current?.schema;
            // Loaded on use: a copy is set aside rarely, and opening a document never needs it.
            if (schema) {
              void import('../live/collab/downloadSetAside.ts').then(({ downloadSetAside }) =>
                downloadSetAside(update, schema, getTitle()),
              );
            }
          },
        }),
    }),
    [showSaved, toast, getTitle],
  );
  const session = useSession();
  const me = session.status === 'ready' ? session.me.user : null;
  const save = useLiveDocument(opened, me?.id ?? '', getTitle, handlers);
  const { live, ended } = save;
  // The role the document opened with, or the one the live connection has now (lowered or
  // raised while the page is open: the connection is made again with it).
  const viewing = !canEdit || live?.readOnly === true;
  const collab = useMemo(
    () =>
      live && me
        ? { extensions: live.shared.extensions(caretUserOf(me)), readOnly: live.readOnly }
        : null,
    // The person does not change while the page is open; the extensions are made once per connection.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [live],
  );
  const editor = useInkwellEditor({ markdown, onRefused: showRefusal, collab });
  useEffect(() => {
    editorRef.current = editor;
  }, [editor]);
  // Signed out, access withdrawn, or a refused copy being set aside: the document stays in
  // view, read-only, until the connection is good again.
  useEffect(() => {
    if (collab) editor.setEditable(canEdit && !collab.readOnly && !ended, false);
  }, [editor, collab, ended, canEdit]);
  const onOpened = useCallback(() => {
    // For the performance panel and the import benchmark: the imported document is in the page
    // (on its shared document: a document made here is shown once, live at once).
    if (opened.creating && collab) performance.mark('inkwell:import:applied');
  }, [opened, collab]);

  // The list's excerpt follows the content once the server has stored it.
  const excerptFor = useRef<ProseMirrorNode | null>(null);
  useEffect(() => {
    if (!collab) return;
    return save.status.subscribe((status) => {
      const { doc } = editor.state;
      const before = excerptFor.current;
      if (status.kind !== 'saved' || before === doc) return;
      excerptFor.current = doc;
      if (before && sameExcerpt(before, doc)) return;
      list.update(id, { excerpt: excerptOf(doc) });
    });
  }, [collab, editor, save.status, list, id]);

  const { titleChanged } = save;
  const changeTitle = useCallback(
    (next: string) => {
      showTitle(next);
      titleChanged();
    },
    [showTitle, titleChanged],
  );
  const transfer = useMarkdownTransfer(editor, getTitle);
  const { insertMarkdown, pasteHint } = transfer;

  useEffect(() => {
    markdown.current = {
      onMarkdownText: (text) => void insertMarkdown(text),
      onMarkdownFile: (file, companions) => void importFile(file, companions),
      onPasteHint: pasteHint,
    };
  }, [insertMarkdown, importFile, pasteHint]);

  // The codec is not fetched at start (it would double what the editor route downloads): opening
  // the menu or pointing at the import button fetches it, and import, paste and export load it.

  useEffect(() => {
    document.title = `${title.trim() || 'Untitled'} – Inkwell`;
  }, [title]);

  // A dialog whose code could not be fetched closes with a message; the next one tries afresh.
  const [dialogKey, setDialogKey] = useState(0);
  const dialogFailed = useCallback(() => {
    toast.show("Couldn't open this dialog. Check your connection and try again.", 'error');
    setSheetOpen(false);
    setShareOpen(false);
    setHistoryOpen(false);
    setDialogKey((key) => key + 1);
  }, [toast]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isShortcutSheetKey(event)) return;
      event.preventDefault();
      setSheetOpen((open) => !open);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const progress = importProgress ?? transfer.progress;

  return (
    <AppLayout
      title={
        <TitleField
          value={title}
          // Signed out, access withdrawn or only viewing: the title can no more be saved than
          // the text.
          readOnly={viewing || ended === 'signed-out' || ended === 'revoked'}
          onChange={changeTitle}
          onEnter={() => {
            // Focused now, not on the next frame as Tiptap's focus command does: the keys typed
            // right after Enter belong to the document, not to the title.
            editor.view.focus();
            editor.commands.focus('start');
          }}
        />
      }
      actions={
        <>
          {progress ? <InlineProgress label={progress} /> : null}
          {canEdit ? (
            <button
              type="button"
              className="ink-button"
              aria-haspopup="dialog"
              onClick={() => setHistoryOpen(true)}
            >
              History
            </button>
          ) : null}
          {isOwner ? (
            <button
              type="button"
              className="ink-button"
              aria-haspopup="dialog"
              onClick={() => setShareOpen(true)}
            >
              Share
            </button>
          ) : null}
          <AppMenu
            onOpen={prefetchMarkdownCodec}
            onImport={!viewing ? () => fileInput.current?.click() : undefined}
            onExport={() => void transfer.exportFile()}
            onExportWithImages={() => void transfer.exportZip()}
            onCopy={() => void transfer.copyMarkdown()}
            onPaste={!viewing ? () => editor.commands.pasteMarkdown() : undefined}
            onShortcuts={() => setSheetOpen(true)}
            onTrash={
              isOwner
                ? () => void moveToTrash({ ...summaryOf(opened.record), title: getTitle() })
                : undefined
            }
          />
        </>
      }
    >
      <Editor
        editor={editor}
        // A document made in this tab opens on its shared document only, drawn once.
        content={collab || opened.creating ? null : opened.content}
        onOpened={onOpened}
      >
        {/* "Start writing" is no hint to someone who may only read. */}
        {!viewing ? (
          <EmptyDocumentHint
            editor={editor}
            onImport={() => fileInput.current?.click()}
            onShortcuts={() => setSheetOpen(true)}
          />
        ) : null}
      </Editor>
      <WikilinkPanel documentId={id} openedTitle={opened.record.title} onServer={onServer} />
      <StatusBar editor={editor} saveState={save.status} viewOnly={viewing}>
        <PresenceStrip provider={live?.shared.connection.provider ?? null} />
      </StatusBar>
      <MarkdownFileInput
        ref={fileInput}
        onFile={(file, companions) => void importFile(file, companions)}
      />
      <ErrorBoundary key={dialogKey} onError={dialogFailed}>
        <Suspense fallback={null}>
          {sheetOpen ? <ShortcutSheet open onClose={() => setSheetOpen(false)} /> : null}
          {shareOpen ? <ShareDialog documentId={id} onClose={() => setShareOpen(false)} /> : null}
          {historyOpen ? (
            <HistoryPanel
              documentId={id}
              title={title}
              // A restore is written through the live document's editor, only while it may write.
              editor={collab && !viewing && !ended ? editor : null}
              onClose={() => setHistoryOpen(false)}
            />
          ) : null}
        </Suspense>
      </ErrorBoundary>
    </AppLayout>
  );
}
