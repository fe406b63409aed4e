import { useId, useState, type FormEvent } from 'react';
import { MAX_VERSION_NAME } from '../../../common/api/versions.ts';
import { shareErrorText } from '../sharing/shareErrors.ts';

/** Props of {@link VersionNameForm}. */
export interface VersionNameFormProps {
  /** The field's label. */
  label: string;
  /** The name the field starts with. */
  initial?: string;
  /** Sends the name; a rejection is said under the field, which keeps what was typed. */
  onSave: (name: string) => Promise<void>;
  /** Closes the form without saving. */
  onCancel: () => void;
}

/** A one-line form that names a version, for the current state or a version shown. */
export function VersionNameForm({ label, initial = '', onSave, onCancel }: VersionNameFormProps) {
  const id = useId();
  const [name, setName] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSave(name.trim());
    } catch (failure) {
      setError(shareErrorText(failure));
      setBusy(false);
    }
  };
  return (
    <form className="ink-history__name" onSubmit={(event) => void submit(event)}>
      <label htmlFor={id} className="ink-share__label">
        {label}
      </label>
      <div className="ink-share__row">
        <input
          id={id}
          className="ink-input ink-share__grow"
          value={name}
          maxLength={MAX_VERSION_NAME}
          autoFocus
          onInput={(event) => setName(event.currentTarget.value)}
          onKeyDown={(event) => {
            // Escape closes this form, not the whole panel.
            if (event.key === 'Escape') {
              event.preventDefault();
              event.stopPropagation();
              onCancel();
            }
          }}
        />
        <button
          type="submit"
          className="ink-button ink-button--primary"
          disabled={busy || name.trim() === ''}
        >
          Save
        </button>
        <button type="button" className="ink-button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {error ? (
        <p role="alert" className="ink-share__error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
