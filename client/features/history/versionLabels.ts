import type { VersionSummary } from '../../../common/api/versions.ts';

/** Versions kept on one day of the reader's calendar. */
export interface VersionDay {
  /** "Today", "Yesterday" or the date. */
  label: string;
  versions: VersionSummary[];
}

const dayKey = (date: Date) => `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;

/** The versions (newest first) grouped by the day they were kept, in the reader's time zone. */
export function versionDays(versions: readonly VersionSummary[], now: Date): VersionDay[] {
  const today = dayKey(now);
  const yesterday = dayKey(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  const dateFormat = new Intl.DateTimeFormat(undefined, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
  });
  const withYear = new Intl.DateTimeFormat(undefined, {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
  });
  const days: VersionDay[] = [];
  let last: string | null = null;
  for (const version of versions) {
    const date = new Date(version.createdAt);
    const key = dayKey(date);
    if (key !== last) {
      last = key;
      const label =
        key === today
          ? 'Today'
          : key === yesterday
            ? 'Yesterday'
            : (date.getFullYear() === now.getFullYear() ? dateFormat : withYear).format(date);
      days.push({ label, versions: [] });
    }
    days[days.length - 1]!.versions.push(version);
  }
  return days;
}

/** The time of day a version was kept, as the list shows it. */
export function versionTime(version: VersionSummary): string {
  return new Date(version.createdAt).toLocaleTimeString(undefined, {
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** The day and time a version was kept, for sentences ("Restored the version of …"). */
export function versionMoment(version: VersionSummary): string {
  return new Date(version.createdAt).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** A version's title in the list: its name, or what kind of version it is. */
export function versionTitle(version: VersionSummary): string {
  if (version.name) return version.name;
  if (version.kind === 'restore') return 'Before restore';
  return version.kind === 'named' ? 'Named version' : 'Saved automatically';
}

/** The size of a version's change: characters written and removed, "+12 −3". */
export function versionChange(version: VersionSummary): string {
  return `+${version.added.toLocaleString()} \u2212${version.removed.toLocaleString()}`;
}

/** The people who wrote in a version, "Ada, Bea and Cy". */
export function versionAuthors(version: VersionSummary): string {
  const names = version.authors.map((author) => author.name);
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
}

/** The name of the Markdown file of a version: `<title> (<date time>)`, without the extension. */
export function versionFileTitle(title: string, version: VersionSummary): string {
  const date = new Date(version.createdAt);
  const pad = (n: number) => String(n).padStart(2, '0');
  // Colons are refused in file names on Windows and macOS: the time reads 14.05.
  const stamp = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}.${pad(date.getMinutes())}`;
  return `${title.trim() || 'Untitled'} (${stamp})`;
}
