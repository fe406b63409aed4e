import { useEffect, useId, useState } from 'react';

/** Props of {@link AddressField}. */
export interface AddressFieldProps {
  /** What the address is, as the field's label. */
  label: string;
  /** The whole address. */
  url: string;
  /** Whether to offer Open (a new tab) beside Copy. */
  openable?: boolean;
}

/** A shareable address, selectable as text, with Copy (and Open) beside it. */
export function AddressField({ label, url, openable = false }: AddressFieldProps) {
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const id = useId();

  // A new address (the link made again) has not been copied.
  useEffect(() => setCopied(null), [url]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <div className="ink-share__address">
      <label htmlFor={id} className="ink-share__label">
        {label}
      </label>
      <div className="ink-share__row">
        <input
          id={id}
          className="ink-input ink-share__grow"
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="ink-button" onClick={() => void copy()}>
          Copy
        </button>
        {openable ? (
          <a className="ink-button ink-share__open" href={url} target="_blank" rel="noopener">
            Open
          </a>
        ) : null}
      </div>
      <p className="ink-share__hint" role="status">
        {copied === 'copied'
          ? 'Copied.'
          : copied === 'failed'
            ? "Couldn't copy: select the address and copy it."
            : ''}
      </p>
    </div>
  );
}
