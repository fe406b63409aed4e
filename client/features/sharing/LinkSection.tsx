import { useId, useState } from 'react';
import type { GrantedRole, SharingState } from '../../../common/api/sharing.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { AddressField } from './AddressField.tsx';
import type { SharingApi } from './sharingApi.ts';
import { useSharingChange } from './useSharingChange.ts';

type LinkChoice = 'off' | GrantedRole;

/** Props of {@link LinkSection}. */
export interface LinkSectionProps {
  /** The sharing API (a fake in tests). */
  api: SharingApi;
  /** The document shared. */
  documentId: string;
  /** The link as it is now. */
  state: SharingState;
  /** Runs a change and shows its new state; rejects with the request's error. */
  change: (request: () => Promise<SharingState>) => Promise<void>;
}

/**
 * The document's link for people who sign in: off, can view or can edit; its address to copy,
 * and a new address that ends the old one (asked first: people who came through it lose access).
 */
export function LinkSection({ api, documentId, state, change }: LinkSectionProps) {
  const { busy, error, run } = useSharingChange(change);
  const [confirming, setConfirming] = useState(false);
  const selectId = useId();
  const choice: LinkChoice = state.link?.role ?? 'off';

  const choose = (next: LinkChoice) => {
    if (next === choice) return;
    void run(() => (next === 'off' ? api.deleteLink(documentId) : api.setLink(documentId, next)));
  };

  return (
    <section className="ink-share__section" aria-labelledby={`${selectId}-heading`}>
      <h3 id={`${selectId}-heading`}>Link</h3>
      <div className="ink-share__row">
        <label htmlFor={selectId} className="ink-share__grow">
          Anyone with the link who signs in
        </label>
        <select
          id={selectId}
          className="ink-input ink-share__select"
          value={choice}
          disabled={busy}
          onChange={(event) => choose(event.currentTarget.value as LinkChoice)}
        >
          <option value="off">Off</option>
          <option value="viewer">Can view</option>
          <option value="editor">Can edit</option>
        </select>
      </div>
      {state.link ? (
        <>
          <AddressField label="The link" url={state.link.url} />
          <button
            type="button"
            className="ink-link-button"
            disabled={busy}
            onClick={() => setConfirming(true)}
          >
            Make a new link
          </button>
        </>
      ) : null}
      {error ? (
        <p className="ink-share__error" role="alert">
          {error}
        </p>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          open
          title="Make a new link?"
          message="The old link stops working, and people who came in through it lose access."
          confirmLabel="Make a new link"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void run(() => api.resetLink(documentId));
          }}
        />
      ) : null}
    </section>
  );
}
