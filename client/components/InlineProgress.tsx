/** Props of {@link InlineProgress}. */
export interface InlineProgressProps {
  /** What is happening, e.g. "Importing Markdown…". */
  label: string;
}

/**
 * An indeterminate progress bar with its label. The bar animates `transform` only, which the
 * compositor keeps moving while the main thread parses a large file.
 */
export function InlineProgress({ label }: InlineProgressProps) {
  return (
    <div className="ink-progress" role="progressbar" aria-label={label} aria-busy="true">
      <span className="ink-progress__label">{label}</span>
      <span className="ink-progress__track" aria-hidden="true">
        <span className="ink-progress__bar" />
      </span>
    </div>
  );
}
