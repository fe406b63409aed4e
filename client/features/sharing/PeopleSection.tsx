import { useEffect, useId, useState } from 'react';
import {
  emailSchema,
  type GrantedRole,
  type Person,
  type SharingState,
} from '../../../common/api/sharing.ts';
import { isNoAccount, shareErrorText } from './shareErrors.ts';
import type { SharingApi } from './sharingApi.ts';
import { useSharingChange } from './useSharingChange.ts';

/** Typing pauses this long (ms) before an address is looked up. */
const LOOKUP_DELAY_MS = 350;

type Lookup =
  | { kind: 'idle' }
  | { kind: 'looking' }
  | { kind: 'found'; person: Person }
  | { kind: 'none' }
  | { kind: 'failed'; message: string };

/** Props of {@link PeopleSection}. */
export interface PeopleSectionProps {
  /** The sharing API (a fake in tests). */
  api: SharingApi;
  /** The document shared. */
  documentId: string;
  /** Who has it now. */
  state: SharingState;
  /** Runs a change and shows its new state; rejects with the request's error. */
  change: (request: () => Promise<SharingState>) => Promise<void>;
}

/** Options of the role selects. */
function RoleOptions() {
  return (
    <>
      <option value="viewer">Viewer</option>
      <option value="editor">Editor</option>
    </>
  );
}

/**
 * The people a document is shared with: an address looked up once it is one (the account's name
 * shown before sharing), and the list, the owner first, each with a role and Remove.
 */
export function PeopleSection({ api, documentId, state, change }: PeopleSectionProps) {
  const [email, setEmail] = useState('');
  const [lookup, setLookup] = useState<Lookup>({ kind: 'idle' });
  const [role, setRole] = useState<GrantedRole>('editor');
  const { busy, error, run } = useSharingChange(change);
  const emailId = useId();
  const lookupId = useId();

  useEffect(() => {
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setLookup({ kind: 'idle' });
      return;
    }
    setLookup({ kind: 'looking' });
    let live = true;
    const timer = window.setTimeout(() => {
      api.findPerson(parsed.data).then(
        (person) => live && setLookup({ kind: 'found', person }),
        (failure: unknown) => {
          if (!live) return;
          setLookup(
            isNoAccount(failure)
              ? { kind: 'none' }
              : { kind: 'failed', message: shareErrorText(failure) },
          );
        },
      );
    }, LOOKUP_DELAY_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [api, email]);

  const share = async () => {
    if (lookup.kind !== 'found') return;
    const shared = await run(() => api.sharePerson(documentId, lookup.person.email, role));
    if (shared) setEmail('');
  };

  return (
    <section className="ink-share__section" aria-labelledby={`${emailId}-heading`}>
      <h3 id={`${emailId}-heading`}>People</h3>
      <form
        className="ink-share__add"
        onSubmit={(event) => {
          event.preventDefault();
          void share();
        }}
      >
        <label htmlFor={emailId} className="ink-share__label">
          Add someone by e-mail address
        </label>
        <div className="ink-share__row">
          <input
            id={emailId}
            type="email"
            className="ink-input ink-share__grow"
            autoComplete="off"
            placeholder="name@example.com"
            aria-describedby={lookupId}
            data-autofocus
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          <select
            className="ink-input ink-share__select"
            aria-label="Role to give"
            value={role}
            onChange={(event) => setRole(event.currentTarget.value as GrantedRole)}
          >
            <RoleOptions />
          </select>
          <button
            type="submit"
            className="ink-button ink-button--primary"
            disabled={lookup.kind !== 'found' || busy}
          >
            Share
          </button>
        </div>
        <p id={lookupId} className="ink-share__hint" role="status">
          {lookup.kind === 'looking'
            ? 'Looking up…'
            : lookup.kind === 'found'
              ? `${lookup.person.name || lookup.person.email} · ${lookup.person.email}`
              : lookup.kind === 'none'
                ? 'No account uses this address.'
                : lookup.kind === 'failed'
                  ? lookup.message
                  : ''}
        </p>
      </form>
      {error ? (
        <p className="ink-share__error" role="alert">
          {error}
        </p>
      ) : null}
      <ul className="ink-share__people" aria-label="People with access">
        <li className="ink-share__person">
          <span className="ink-share__who">
            <span>{state.owner.name || state.owner.email}</span>
            <span className="ink-share__email">{state.owner.email}</span>
          </span>
          <span className="ink-share__owner">Owner</span>
        </li>
        {state.people.map((person) => {
          const name = person.name || person.email;
          return (
            <li key={person.id} className="ink-share__person">
              <span className="ink-share__who">
                <span>{name}</span>
                <span className="ink-share__email">{person.email}</span>
              </span>
              <select
                className="ink-input ink-share__select"
                aria-label={`Role of ${name}`}
                value={person.role}
                disabled={busy}
                onChange={(event) => {
                  const next = event.currentTarget.value as GrantedRole;
                  void run(() => api.changeRole(documentId, person.id, next));
                }}
              >
                <RoleOptions />
              </select>
              <button
                type="button"
                className="ink-button"
                aria-label={`Remove ${name}`}
                disabled={busy}
                onClick={() => void run(() => api.removePerson(documentId, person.id))}
              >
                Remove
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
