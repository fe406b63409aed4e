import type { DocumentSummary } from '../../../common/api/documents.ts';
import { DocumentRow } from './DocumentRow.tsx';
import type { FolderNode } from './folderTree.ts';

/** Props of {@link FolderTree}. */
export interface FolderTreeProps {
  /** The root of {@link buildFolderTree}. */
  root: FolderNode;
  /** Paths of the open folders. */
  open: ReadonlySet<string>;
  /** Opens or closes a folder. */
  onToggle: (path: string) => void;
  /** Exports a folder as a zip; absent while an export or import runs. */
  onExport?: (path: string) => void;
  currentId: string | null;
  onTrash: (summary: DocumentSummary) => void;
  onOpen: () => void;
}

function Chevron() {
  return (
    <svg
      width="12"
      height="12"
      viewBox="0 0 12 12"
      aria-hidden="true"
      className="ink-folder__chevron"
    >
      <path d="M4.5 2.5 8 6l-3.5 3.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
    </svg>
  );
}

function ExportIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none">
      <path
        d="M8 2.5v7M5 6.5l3 3 3-3M3 11v1.5c0 .6.4 1 1 1h8c.6 0 1-.4 1-1V11"
        stroke="currentColor"
        strokeWidth="1.3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The items of one folder: its folders first (collapsible), then its documents. */
function FolderItems(props: FolderTreeProps & { node: FolderNode }) {
  const { node, open, onToggle, onExport, currentId, onTrash, onOpen } = props;
  return (
    <>
      {node.folders.map((folder) => {
        const expanded = open.has(folder.path);
        return (
          <li key={`folder:${folder.path}`} className="ink-folder">
            <div className="ink-folder__row">
              <button
                type="button"
                className="ink-folder__toggle"
                aria-expanded={expanded}
                title={folder.path}
                onClick={() => onToggle(folder.path)}
              >
                <Chevron />
                <span className="ink-folder__name">{folder.name}</span>
              </button>
              {onExport ? (
                <button
                  type="button"
                  className="ink-icon-button ink-folder__export"
                  aria-label={`Export “${folder.name}” as .zip`}
                  title="Export folder as .zip"
                  onClick={() => onExport(folder.path)}
                >
                  <ExportIcon />
                </button>
              ) : null}
            </div>
            {expanded ? (
              <ul className="ink-doc-list ink-folder__items" aria-label={folder.name}>
                <FolderItems {...props} node={folder} />
              </ul>
            ) : null}
          </li>
        );
      })}
      {node.documents.map((summary) => (
        <DocumentRow
          key={summary.id}
          summary={summary}
          current={summary.id === currentId}
          onTrash={onTrash}
          onOpen={onOpen}
        />
      ))}
    </>
  );
}

/** The sidebar's documents in their folders; without folders, the plain list it always was. */
export function FolderTree(props: FolderTreeProps) {
  return (
    <ul className="ink-doc-list" aria-label="Documents">
      <FolderItems {...props} node={props.root} />
    </ul>
  );
}
