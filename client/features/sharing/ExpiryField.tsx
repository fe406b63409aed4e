import { useId, useState } from 'react';
import { MAX_PUBLISH_DAYS } from '../../../common/api/sharing.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The expiries offered, in days from now; `none` for a page that stays, `date` to pick a day. */
const EXPIRIES = [
  { value: 'none', label: 'No expiry' },
  { value: '1', label: '1 day' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: 'date', label: 'A date…' },
] as const;

/** Props of {@link ExpiryField}. */
export interface ExpiryFieldProps {
  /** The published page's expiry, or null for none. */
  expiresAt: string | null;
  /** Whether a change is under way. */
  busy: boolean;
  /** Asks for a new expiry (null for none); resolves to whether the server took it. */
  onExpiry: (expiresAt: string | null) => Promise<boolean>;
  /** The time now. */
  now: () => number;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A day in the `YYYY-MM-DD` form of a date input, in local time. */
function dayOf(time: number): string {
  const date = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The local midnight that ends `day` (a date input's value), or null for no day. */
function endOfDay(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const start = new Date(year, month, date);
  // Date rolls 31 February into March: a day that does not exist is no day.
  if (start.getMonth() !== month || start.getDate() !== date) return null;
  return new Date(year, month, date + 1);
}

/**
 * When the published page stops being published: never, after a number of days, or at the end
 * of a day picked in a date input (the page is read through that whole day, in the owner's time).
 */
export function ExpiryField({ expiresAt, busy, onExpiry, now }: ExpiryFieldProps) {
  const id = useId();
  const [choosing, setChoosing] = useState(false);
  const [day, setDay] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const today = now();

  const setDayExpiry = async () => {
    const end = endOfDay(day);
    if (!end) return setProblem('Choose a day.');
    // The same bounds the server holds, said before a round trip.
    if (end.getTime() <= now()) return setProblem('Choose today or a later day.');
    if (end.getTime() > now() + MAX_PUBLISH_DAYS * DAY_MS) {
      return setProblem(`An expiry is at most ${MAX_PUBLISH_DAYS} days away.`);
    }
    setProblem(null);
    // A refused change leaves the day picked, so it can be set again.
    if (await onExpiry(end.toISOString())) {
      setChoosing(false);
      setDay('');
    }
  };

  return (
    <>
      <div className="ink-share__row">
        <label htmlFor={`${id}-expiry`} className="ink-share__grow">
          Stops being published after
        </label>
        <select
          id={`${id}-expiry`}
          className="ink-input ink-share__select"
          // An expiry already set shows its date until another is chosen.
          value={choosing ? 'date' : expiresAt ? 'set' : 'none'}
          disabled={busy}
          onChange={(event) => {
            const value = event.currentTarget.value;
            setProblem(null);
            setChoosing(value === 'date');
            if (value === 'set' || value === 'date') return;
            void onExpiry(
              value === 'none' ? null : new Date(now() + Number(value) * DAY_MS).toISOString(),
            );
          }}
        >
          {expiresAt ? <option value="set">{dateFormat.format(new Date(expiresAt))}</option> : null}
          {EXPIRIES.map(({ value, label }) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {choosing ? (
        <form
          className="ink-share__row"
          // min and max bound the picker; a day typed outside them is explained inline below,
          // as every other problem in the dialog is, rather than in the browser's bubble.
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void setDayExpiry();
          }}
        >
          <label htmlFor={`${id}-day`} className="ink-share__grow">
            Last day published
          </label>
          <input
            id={`${id}-day`}
            type="date"
            className="ink-input ink-share__select"
            value={day}
            min={dayOf(today)}
            max={dayOf(today + (MAX_PUBLISH_DAYS - 1) * DAY_MS)}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(event) => setDay(event.currentTarget.value)}
          />
          <button type="submit" className="ink-button" disabled={busy || day === ''}>
            Set
          </button>
        </form>
      ) : null}
      {problem ? (
        <p id={`${id}-problem`} className="ink-share__error" role="alert">
          {problem}
        </p>
      ) : null}
    </>
  );
}
