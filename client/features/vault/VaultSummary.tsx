import { Dialog } from '../../components/Dialog.tsx';
import type { ImportSummary } from './importVault.ts';

/** Props of {@link VaultSummary}. */
export interface VaultSummaryProps {
  summary: ImportSummary;
  onClose: () => void;
}

/** Most names listed per section; a vault of thousands of images would make a page of them. */
const LISTED = 200;

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;

function Names({ names }: { names: readonly string[] }) {
  return (
    <ul className="ink-vault-summary__list">
      {names.slice(0, LISTED).map((name, i) => (
        <li key={i}>{name}</li>
      ))}
      {names.length > LISTED ? <li>and {(names.length - LISTED).toLocaleString()} more</li> : null}
    </ul>
  );
}

/** What a vault import did: notes in, files kept for later, files skipped and why. */
export function VaultSummary({ summary, onClose }: VaultSummaryProps) {
  const { imported, notes, folders, images, keptForLater, hidden, failed, stopped } = summary;
  return (
    <Dialog
      open
      title="Vault imported"
      onClose={onClose}
      className="ink-vault-summary"
      footer={
        <button
          type="button"
          className="ink-button ink-button--primary"
          data-autofocus
          onClick={onClose}
        >
          Done
        </button>
      }
    >
      <p>
        Imported {plural(imported, 'note', 'notes')} of {notes.toLocaleString()}
        {folders > 0 ? ` into ${plural(folders, 'folder', 'folders')}` : ''}
        {images > 0 ? `, with ${plural(images, 'image', 'images')}` : ''}.
      </p>
      {stopped ? (
        <p role="alert">
          The import stopped: {stopped} The notes counted above are in Inkwell; the others were not
          imported.
        </p>
      ) : null}
      {failed.length > 0 ? (
        <section aria-label="Not imported">
          <h3>{plural(failed.length, 'file', 'files')} not imported</h3>
          <ul className="ink-vault-summary__list">
            {failed.slice(0, LISTED).map((problem, i) => (
              <li key={i}>
                <strong>{problem.path}</strong>: {problem.reason}
              </li>
            ))}
            {failed.length > LISTED ? (
              <li>and {(failed.length - LISTED).toLocaleString()} more</li>
            ) : null}
          </ul>
        </section>
      ) : null}
      {keptForLater.length > 0 ? (
        <section aria-label="Kept for later">
          <h3>{plural(keptForLater.length, 'attachment', 'attachments')} kept for later</h3>
          <p className="ink-muted">
            Inkwell stores images but not other files (such as PDFs) yet. Your notes keep their
            links to them as written, so they come back when you export.
          </p>
          <Names names={keptForLater} />
        </section>
      ) : null}
      {hidden > 0 ? (
        <p className="ink-muted">
          Skipped{' '}
          {plural(hidden, 'hidden file or settings folder', 'hidden files and settings folders')}{' '}
          (such as .obsidian).
        </p>
      ) : null}
    </Dialog>
  );
}
