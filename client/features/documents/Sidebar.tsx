import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import type { DocumentSummary } from '../../../common/api/documents.ts';
import { createPortal } from 'react-dom';
import { Link } from '../../app/Link.tsx';
import { useRoute } from '../../app/router.ts';
import { useSidebar } from '../../app/sidebarContext.ts';
import { useSession } from '../auth/sessionContext.ts';
import { DocumentRow } from './DocumentRow.tsx';
import {
  useDocumentList,
  useDocumentListState,
  useSharedDocumentListState,
} from './documentListContext.ts';
import { VaultMenu } from '../vault/VaultMenu.tsx';
import { VaultProgress } from '../vault/VaultProgress.tsx';
import { useVault } from '../vault/useVault.ts';
import { useVaultDrop } from '../vault/useVaultDrop.ts';
import { FolderTree } from './FolderTree.tsx';
import { buildFolderTree } from './folderTree.ts';
import { useDocumentActions } from './useDocumentActions.ts';
import { useOpenFolders } from './useOpenFolders.ts';
import { onSearchRequest } from './searchRequest.ts';
import { useDocumentSearch, type SearchState } from './useDocumentSearch.ts';
import './sidebar.css';
import '../vault/vault.css';

// Shown after an import only, by when the import's own code has loaded.
const VaultSummary = lazy(() =>
  import('../vault/VaultSummary.tsx').then((m) => ({ default: m.VaultSummary })),
);

/** Props of {@link DocumentRows}. */
interface DocumentRowsProps {
  documents: readonly DocumentSummary[];
  currentId: string | null;
  label: string;
  onTrash: (summary: DocumentSummary) => void;
  onOpen: () => void;
}

function DocumentRows({ documents, currentId, label, onTrash, onOpen }: DocumentRowsProps) {
  return (
    <ul className="ink-doc-list" aria-label={label}>
      {documents.map((summary) => (
        <DocumentRow
          key={summary.id}
          summary={summary}
          current={summary.id === currentId}
          onTrash={onTrash}
          onOpen={onOpen}
        />
      ))}
    </ul>
  );
}

function searchMessage(search: SearchState): string | null {
  if (search.status === 'searching') return 'Searching…';
  if (search.status === 'error') return "Couldn't search. Check your connection.";
  if (search.status === 'done' && search.results.length === 0) return 'No documents match.';
  return null;
}

/**
 * The sidebar: a new document, search, the document list, and the way to the trash and the
 * settings. Beside the page on wide screens, over it on phones.
 */
export function Sidebar() {
  const sidebar = useSidebar();
  const route = useRoute();
  const session = useSession();
  const list = useDocumentList();
  const { documents, status } = useDocumentListState();
  const shared = useSharedDocumentListState();
  const { createNew, moveToTrash } = useDocumentActions();
  const [query, setQuery] = useState('');
  const search = useDocumentSearch(query);
  const searchId = useId();
  const currentId = route.name === 'document' ? route.id : null;
  const { dismiss, open: sidebarOpen, toggle } = sidebar;
  const vault = useVault();
  useVaultDrop(vault.importFiles);
  const tree = useMemo(() => buildFolderTree(documents), [documents]);
  const currentFolder = documents.find((summary) => summary.id === currentId)?.folder ?? null;
  const folders = useOpenFolders(currentFolder);

  // A vault dropped while the sidebar is closed shows its progress and its folders here.
  const vaultBusy = vault.progress !== null;
  useEffect(() => {
    if (vaultBusy && !sidebarOpen) toggle();
  }, [vaultBusy, sidebarOpen, toggle]);

  // A click on a #tag in a document searches for it here, opening the sidebar if need be.
  useEffect(
    () =>
      onSearchRequest((requested) => {
        setQuery(requested);
        if (!sidebarOpen) toggle();
      }),
    [sidebarOpen, toggle],
  );
  const newButton = useRef<HTMLButtonElement>(null);

  // On a phone the sidebar opens over the page: take the focus into it, as a drawer does.
  const overlay = sidebar.open && sidebar.narrow;
  useEffect(() => {
    if (overlay) newButton.current?.focus();
  }, [overlay]);

  const onTrash = useCallback(
    (summary: DocumentSummary) => void moveToTrash(summary),
    [moveToTrash],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape') return;
    if (event.target instanceof HTMLInputElement && query) {
      setQuery('');
      event.stopPropagation();
    } else if (sidebar.narrow) {
      dismiss();
    }
  };

  const searching = query.trim() !== '';
  const message = searching ? searchMessage(search) : null;
  const account = session.status === 'ready' ? session.me.user : null;

  return (
    <aside
      id="ink-sidebar"
      className="ink-sidebar"
      aria-label="Documents"
      hidden={!sidebar.open}
      onKeyDown={onKeyDown}
    >
      <div className="ink-sidebar__top">
        <div className="ink-sidebar__actions">
          <button
            ref={newButton}
            type="button"
            className="ink-button ink-button--primary ink-sidebar__new"
            onClick={createNew}
          >
            New document
          </button>
          <VaultMenu
            onImport={(input) => void vault.importFiles(input)}
            onExportAll={() => void vault.exportFolder('')}
          />
        </div>
        <div role="search" className="ink-sidebar__search">
          <label htmlFor={searchId} className="ink-visually-hidden">
            Search documents
          </label>
          <input
            id={searchId}
            type="search"
            className="ink-input"
            placeholder="Search"
            autoComplete="off"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
      </div>
      {vault.progress ? <VaultProgress {...vault.progress} /> : null}
      {vault.summary
        ? // Into the body: a dialog inside the sidebar would not show once the sidebar is closed.
          createPortal(
            <Suspense fallback={null}>
              <VaultSummary summary={vault.summary} onClose={vault.dismissSummary} />
            </Suspense>,
            document.body,
          )
        : null}
      <nav className="ink-sidebar__list" aria-label={searching ? 'Search results' : 'Documents'}>
        {message ? (
          <p className="ink-sidebar__message" role="status">
            {message}
          </p>
        ) : null}
        {searching ? (
          search.status === 'done' ? (
            <DocumentRows
              documents={search.results}
              currentId={currentId}
              label="Search results"
              onTrash={onTrash}
              onOpen={dismiss}
            />
          ) : null
        ) : status === 'error' ? (
          <p className="ink-sidebar__message">
            Couldn't load your documents.{' '}
            <button type="button" className="ink-link-button" onClick={() => void list.refresh()}>
              Try again
            </button>
          </p>
        ) : status === 'ready' && documents.length === 0 ? (
          <p className="ink-sidebar__message">No documents yet.</p>
        ) : (
          <FolderTree
            root={tree}
            open={folders.open}
            onToggle={folders.toggle}
            onExport={vault.progress ? undefined : (path) => void vault.exportFolder(path)}
            currentId={currentId}
            onTrash={onTrash}
            onOpen={dismiss}
          />
        )}
        {!searching && shared.documents.length > 0 ? (
          <section className="ink-sidebar__shared" aria-labelledby={`${searchId}-shared`}>
            <h2 id={`${searchId}-shared`} className="ink-sidebar__heading">
              Shared with me
            </h2>
            <DocumentRows
              documents={shared.documents}
              currentId={currentId}
              label="Shared with me"
              onTrash={onTrash}
              onOpen={dismiss}
            />
          </section>
        ) : null}
      </nav>
      <div className="ink-sidebar__bottom">
        <Link
          href="/trash"
          className="ink-sidebar__link"
          aria-current={route.name === 'trash' ? 'page' : undefined}
          onClick={dismiss}
        >
          Trash
        </Link>
        <Link
          href="/settings"
          className="ink-sidebar__link ink-sidebar__account"
          aria-current={route.name === 'settings' ? 'page' : undefined}
          onClick={dismiss}
        >
          <span>Settings</span>
          {account ? (
            <span className="ink-sidebar__who">{account.name ?? account.email ?? ''}</span>
          ) : null}
        </Link>
      </div>
    </aside>
  );
}
