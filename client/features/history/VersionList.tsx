import type { VersionSummary } from '../../../common/api/versions.ts';
import {
  versionAuthors,
  versionChange,
  versionDays,
  versionTime,
  versionTitle,
} from './versionLabels.ts';

/** Props of {@link VersionList}. */
export interface VersionListProps {
  /** The versions loaded so far, newest first. */
  versions: readonly VersionSummary[];
  /** The version shown, if any. */
  selectedId: string | null;
  /** Shows a version. */
  onSelect: (version: VersionSummary) => void;
  /** The time now, for "Today" and "Yesterday". */
  now: Date;
}

/** The versions grouped by day, each row a button that shows its version. */
export function VersionList({ versions, selectedId, onSelect, now }: VersionListProps) {
  return (
    <>
      {versionDays(versions, now).map((day) => (
        <section key={day.label} className="ink-history__day" aria-label={day.label}>
          <h3>{day.label}</h3>
          <ul>
            {day.versions.map((version) => (
              <li key={version.id}>
                <button
                  type="button"
                  className="ink-history__version"
                  aria-current={version.id === selectedId ? 'true' : undefined}
                  onClick={() => onSelect(version)}
                >
                  <span className="ink-history__when">{versionTime(version)}</span>
                  <span className={version.name ? 'ink-history__named' : 'ink-history__kind'}>
                    {versionTitle(version)}
                  </span>
                  <span className="ink-history__meta">
                    {versionAuthors(version)}
                    <span className="ink-history__change">{versionChange(version)}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
