import { memo } from 'react';
import type { DocumentSummary } from '../../../common/api/documents.ts';
import { Link } from '../../app/Link.tsx';
import { documentPath } from '../../app/router.ts';
import { relativeTime } from '../../lib/relativeTime.ts';
import { displayTitle } from './useDocumentActions.ts';

/** Props of {@link DocumentRow}. */
export interface DocumentRowProps {
  /** The document. */
  summary: DocumentSummary;
  /** Whether it is the open one. */
  current: boolean;
  /** Moves it to the trash. */
  onTrash: (summary: DocumentSummary) => void;
  /** Called when the link is followed (to close the sidebar on a phone). */
  onOpen: () => void;
}

function TrashIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none">
      <path
        d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 8.2c.1.7.6 1.3 1.4 1.3h3c.8 0 1.3-.6 1.4-1.3l.6-8.2"
        stroke="currentColor"
        strokeWidth="1.3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * One document in the sidebar: a link with its title, excerpt and age, and a button that moves
 * it to the trash; a document someone shared names its owner instead. Memoised: a save
 * re-renders only its own row.
 */
export const DocumentRow = memo(function DocumentRow(props: DocumentRowProps) {
  const { summary, current, onTrash, onOpen } = props;
  const title = displayTitle(summary.title);
  return (
    <li className="ink-doc-row" data-current={current || undefined}>
      <Link
        href={documentPath(summary.id)}
        className="ink-doc-row__link"
        aria-current={current ? 'page' : undefined}
        onClick={onOpen}
      >
        <span
          className={summary.title.trim() ? 'ink-doc-row__title' : 'ink-doc-row__title ink-muted'}
        >
          {title}
        </span>
        {summary.excerpt ? <span className="ink-doc-row__excerpt">{summary.excerpt}</span> : null}
        {summary.owner ? (
          <span className="ink-doc-row__owner">
            Shared by {summary.owner.name || summary.owner.email}
          </span>
        ) : null}
        <span className="ink-doc-row__time">{relativeTime(summary.updatedAt)}</span>
      </Link>
      {/* Only its owner moves a document to the trash. */}
      {summary.owner ? null : (
        <button
          type="button"
          className="ink-icon-button ink-doc-row__trash"
          aria-label={`Move “${title}” to the trash`}
          title="Move to trash"
          onClick={() => onTrash(summary)}
        >
          <TrashIcon />
        </button>
      )}
    </li>
  );
});
