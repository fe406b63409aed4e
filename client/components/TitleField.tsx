import { DEFAULT_LIMITS } from '../../common/api/limits.ts';

/** Longest title a document may have (docs/PRODUCT.md "Limits"). */
export const TITLE_MAX_LENGTH = DEFAULT_LIMITS.titleChars;

/** Props of {@link TitleField}. */
export interface TitleFieldProps {
  /** The title. */
  value: string;
  /** Receives each edit. */
  onChange: (title: string) => void;
  /** Enter moves on to the document. */
  onEnter: () => void;
  /** Shown but not edited (the document can no longer be saved by this page). */
  readOnly?: boolean;
}

/** The document title in the top bar, edited in place. */
export function TitleField({ value, onChange, onEnter, readOnly = false }: TitleFieldProps) {
  return (
    <input
      className="ink-title"
      type="text"
      aria-label="Document title"
      placeholder="Untitled"
      maxLength={TITLE_MAX_LENGTH}
      spellCheck
      readOnly={readOnly}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === 'ArrowDown') {
          event.preventDefault();
          onEnter();
        }
      }}
    />
  );
}
