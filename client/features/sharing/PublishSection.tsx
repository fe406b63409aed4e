import { useId } from 'react';
import type { PublishRequest, SharingState } from '../../../common/api/sharing.ts';
import { AddressField } from './AddressField.tsx';
import { ExpiryField } from './ExpiryField.tsx';
import type { SharingApi } from './sharingApi.ts';
import { useSharingChange } from './useSharingChange.ts';

/** Props of {@link PublishSection}. */
export interface PublishSectionProps {
  /** The sharing API (a fake in tests). */
  api: SharingApi;
  /** The document shared. */
  documentId: string;
  /** The published page as it is now. */
  state: SharingState;
  /** Runs a change and shows its new state; rejects with the request's error. */
  change: (request: () => Promise<SharingState>) => Promise<void>;
  /** The time now (tests fix it). */
  now?: () => number;
}

/**
 * Publishing to the web: a page anyone with its address reads without signing in. Once on, its
 * address to copy or open, whether search engines may index it (off unless chosen), an expiry,
 * and Unpublish.
 */
export function PublishSection(props: PublishSectionProps) {
  const { api, documentId, state, change, now = Date.now } = props;
  const { busy, error, run } = useSharingChange(change);
  const id = useId();
  const page = state.published;

  // Resolves to whether the server took the change (a refused one is said below the section).
  const publish = (settings: PublishRequest) => run(() => api.publish(documentId, settings));

  return (
    <section className="ink-share__section" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Publish to the web</h3>
      {page ? (
        <>
          <p className="ink-share__hint">
            Anyone with the address can read this page, without signing in.
          </p>
          <AddressField label="The page" url={page.url} openable />
          <label className="ink-share__check">
            <input
              type="checkbox"
              checked={page.indexable}
              disabled={busy}
              onChange={(event) =>
                void publish({ indexable: event.currentTarget.checked, expiresAt: page.expiresAt })
              }
            />
            Let search engines index it
          </label>
          <ExpiryField
            expiresAt={page.expiresAt}
            busy={busy}
            now={now}
            onExpiry={(expiresAt) => publish({ indexable: page.indexable, expiresAt })}
          />
          <button
            type="button"
            className="ink-button"
            disabled={busy}
            onClick={() => void run(() => api.unpublish(documentId))}
          >
            Unpublish
          </button>
        </>
      ) : (
        <div className="ink-share__row">
          <p className="ink-share__hint ink-share__grow">
            Off: only people you share with can read it.
          </p>
          <button
            type="button"
            className="ink-button"
            disabled={busy}
            onClick={() => void publish({ indexable: false, expiresAt: null })}
          >
            Publish
          </button>
        </div>
      )}
      {error ? (
        <p className="ink-share__error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
