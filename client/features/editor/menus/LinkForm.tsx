import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Icon } from './icons.tsx';
import { parseLinkInput } from './linkUrl.ts';

/** Props of {@link LinkForm}. */
export interface LinkFormProps {
  /** The current link's address, or empty for a new link. */
  initialHref: string;
  /** Whether the selection already has a link that "Remove link" can take off. */
  canRemove: boolean;
  /** Called with an allowed, completed address. */
  onApply: (href: string) => void;
  /** Called by "Remove link" and by applying an empty field. */
  onRemove: () => void;
  /** Called on Escape. */
  onCancel: () => void;
}

/** The link popover: one address field, Enter applies, Escape cancels, blocked schemes explained. */
export function LinkForm({ initialHref, canRemove, onApply, onRemove, onCancel }: LinkFormProps) {
  const [value, setValue] = useState(initialHref);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const errorId = useId();

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = parseLinkInput(value);
    if (result.kind === 'invalid') setError(result.message);
    else if (result.kind === 'remove') onRemove();
    else onApply(result.href);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    onCancel();
  };

  return (
    <form className="ink-link-form" onSubmit={submit} onKeyDown={onKeyDown} noValidate>
      <div className="ink-link-form__row">
        <label htmlFor={inputId} className="ink-visually-hidden">
          Link address
        </label>
        <input
          ref={input}
          id={inputId}
          className="ink-field ink-link-form__input"
          type="text"
          inputMode="url"
          enterKeyHint="done"
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          placeholder="Paste or type a link"
          value={value}
          aria-invalid={error !== null}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
        />
        <button
          type="submit"
          className="ink-tool"
          aria-label="Apply link"
          title="Apply link (Enter)"
        >
          <Icon name="check" />
        </button>
        {canRemove && (
          <button type="button" className="ink-button ink-button--quiet" onClick={onRemove}>
            Remove link
          </button>
        )}
      </div>
      {error && (
        <p id={errorId} role="alert" className="ink-error">
          {error}
        </p>
      )}
    </form>
  );
}
