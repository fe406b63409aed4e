import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { FieldResult } from './mediaInput.ts';

/** Props of {@link MediaField}. */
export interface MediaFieldProps<T> {
  /** The visible label, also the field's accessible name. */
  label: string;
  /** The stored value as the field shows it. */
  value: string;
  /** Reads what was typed; an error keeps the field open with its message. */
  parse: (text: string) => FieldResult<T>;
  /** Stores a parsed value; called on Enter and when focus leaves a changed field. */
  onCommit: (value: T) => void;
  /** Called on Escape, after the field has dropped its edit. */
  onCancel: () => void;
  /** Placeholder text. */
  placeholder?: string;
  /** `numeric` brings up a number pad on phones. */
  inputMode?: 'text' | 'numeric';
  /** Narrow fields hold sizes. */
  narrow?: boolean;
}

/** One labelled field of the media menu, committed on Enter or blur and reverted on Escape. */
export function MediaField<T>(props: MediaFieldProps<T>) {
  const { label, value, parse, onCommit, onCancel } = props;
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const cancelled = useRef(false);
  const id = useId();
  const errorId = useId();

  // The node changed under the field (undo, another field): show the new value.
  if (value !== shown) {
    setShown(value);
    setDraft(value);
    setError(null);
  }

  const commit = () => {
    if (cancelled.current) {
      cancelled.current = false;
      return;
    }
    if (draft === value) return;
    const result = parse(draft);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    setError(null);
    onCommit(result.value);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      cancelled.current = true;
      setDraft(value);
      setError(null);
      onCancel();
    }
  };

  return (
    <div
      className={props.narrow ? 'ink-media__field ink-media__field--narrow' : 'ink-media__field'}
    >
      <label htmlFor={id} className="ink-media__label">
        {label}
      </label>
      <input
        id={id}
        className="ink-field"
        type="text"
        inputMode={props.inputMode}
        enterKeyHint="done"
        autoComplete="off"
        placeholder={props.placeholder}
        value={draft}
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => {
          setDraft(event.target.value);
          setError(null);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => {
          cancelled.current = false;
        }}
        onBlur={commit}
      />
      {error && (
        <p id={errorId} role="alert" className="ink-error">
          {error}
        </p>
      )}
    </div>
  );
}
