const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function relativeFormat(locale: string | undefined): Intl.RelativeTimeFormat {
  const key = locale ?? '';
  let format = relativeFormats.get(key);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
    relativeFormats.set(key, format);
  }
  return format;
}

function dateFormat(locale: string | undefined, withYear: boolean): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${withYear}`;
  let format = dateFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric' };
    if (withYear) options.year = 'numeric';
    format = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, format);
  }
  return format;
}

/**
 * When something happened, as a list shows it: "just now", "5 min. ago", "3 hr. ago",
 * "yesterday", then the date (with the year when it is not this year's).
 */
export function relativeTime(iso: string, now: number = Date.now(), locale?: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const ago = now - time;
  // A clock a little ahead of ours still reads "just now".
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return relativeFormat(locale).format(-Math.floor(ago / MINUTE), 'minute');
  if (ago < DAY) return relativeFormat(locale).format(-Math.floor(ago / HOUR), 'hour');
  if (ago < 7 * DAY) return relativeFormat(locale).format(-Math.floor(ago / DAY), 'day');
  const sameYear = new Date(time).getFullYear() === new Date(now).getFullYear();
  return dateFormat(locale, !sameYear).format(time);
}
