import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
// Fields and buttons share the menus' look.
import '../menus/menus.css';

/** One field of a {@link BlockDialog}. */
export interface BlockDialogField {
  /** Key of the field's value in what `submit` receives. */
  name: string;
  /** Visible label. */
  label: string;
  /** Placeholder text. */
  placeholder?: string;
  /** `url` brings up a keyboard with `/` and `.com` on phones. */
  inputMode?: 'url' | 'text';
  /** Values offered as the person types (a datalist). */
  suggestions?: readonly string[];
}

/** What a slash item asks of its dialog. */
export interface BlockDialogSpec {
  /** The dialog's heading, also its accessible name. */
  title: string;
  /** Text of the submit button. */
  submitLabel: string;
  /** The fields, first one focused. */
  fields: readonly BlockDialogField[];
  /** Inserts the block; returns a message to show instead when the values cannot be used. */
  submit: (values: Readonly<Record<string, string>>) => string | null;
}

/** Props of {@link BlockDialog}. */
export interface BlockDialogProps extends BlockDialogSpec {
  /** Closes the dialog; `refocus` returns focus to the editor (Escape, Cancel, done). */
  onClose: (refocus: boolean) => void;
}

const FOCUSABLE = 'input, button, [href], select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * A small inline dialog next to the cursor asking for what a block needs (an address, a
 * language). Focus stays inside until Escape, Cancel or insertion returns it to the editor.
 */
export function BlockDialog({ title, submitLabel, fields, submit, onClose }: BlockDialogProps) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const root = useRef<HTMLFormElement>(null);
  const id = useId();

  useEffect(() => {
    // The renderer mounts the dialog before it is placed in the page: focus on the next frame.
    const frame = requestAnimationFrame(() => root.current?.querySelector('input')?.focus());
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) onClose(false);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('pointerdown', onPointerDown, true);
    };
  }, [onClose]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const message = submit(values);
    if (message) setError(message);
    else onClose(true);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose(true);
      return;
    }
    if (event.key !== 'Tab' || !root.current) return;
    const focusable = [...root.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  return (
    <form
      ref={root}
      role="dialog"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      className="ink-block-dialog"
      onSubmit={onSubmit}
      onKeyDown={onKeyDown}
      noValidate
    >
      <h2 id={`${id}-title`} className="ink-block-dialog__title">
        {title}
      </h2>
      {fields.map((field) => (
        <label key={field.name} className="ink-block-dialog__field">
          <span className="ink-block-dialog__label">{field.label}</span>
          <input
            className="ink-field"
            type="text"
            inputMode={field.inputMode}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            placeholder={field.placeholder}
            list={field.suggestions ? `${id}-${field.name}` : undefined}
            value={values[field.name] ?? ''}
            aria-invalid={error !== null}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => {
              setValues({ ...values, [field.name]: event.target.value });
              setError(null);
            }}
          />
          {field.suggestions && (
            <datalist id={`${id}-${field.name}`}>
              {field.suggestions.map((option) => (
                <option key={option} value={option} />
              ))}
            </datalist>
          )}
        </label>
      ))}
      {error && (
        <p id={`${id}-error`} role="alert" className="ink-error">
          {error}
        </p>
      )}
      <div className="ink-block-dialog__actions">
        <button
          type="button"
          className="ink-button ink-button--quiet"
          onClick={() => onClose(true)}
        >
          Cancel
        </button>
        <button type="submit" className="ink-button ink-button--primary">
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
