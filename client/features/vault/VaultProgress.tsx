import type { VaultProgressState } from './useVault.ts';

/**
 * A determinate progress bar for a vault import or export: "Importing notes… 120 of 1,000".
 * Until the notes are counted it shows its label alone.
 */
export function VaultProgress({ label, done, total }: VaultProgressState) {
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <div
      className="ink-vault-progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total || undefined}
      aria-valuenow={total ? done : undefined}
      aria-valuetext={total ? `${done.toLocaleString()} of ${total.toLocaleString()}` : undefined}
    >
      <span className="ink-vault-progress__label">
        {label}
        {total ? ` ${done.toLocaleString()} of ${total.toLocaleString()}` : ''}
      </span>
      <span className="ink-vault-progress__track" aria-hidden="true">
        <span className="ink-vault-progress__bar" style={{ width: `${percent}%` }} />
      </span>
    </div>
  );
}
