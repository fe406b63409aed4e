import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { useEffect, useState } from 'react';
import type { AuthorshipResponse } from '../../../../common/api/versions.ts';
import { checkContent } from '../../live/persistence/openDocument.ts';
import { shareErrorText } from '../../sharing/shareErrors.ts';
import { VersionPreview } from '../VersionPreview.tsx';
import { authorClass } from './AuthorshipView.ts';

/** Props of {@link WhoWroteWhat}. */
export interface WhoWroteWhatProps {
  /** Loads the document's (or a version's) authorship from the server. */
  load: () => Promise<AuthorshipResponse>;
  /** The accessible name of the shown document. */
  label: string;
}

type Loaded =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; content: ProseMirrorNode; authorship: AuthorshipResponse };

/** One person in the key: their colour, name and share of the text. */
interface KeyEntry {
  index: number;
  name: string;
  characters: number;
}

/**
 * Who wrote what (docs/PRODUCT.md "Version history"): the document drawn read-only with each run
 * of text coloured by the person who wrote it, as the server recorded it, and a key of the
 * people with their share of the text.
 */
export function WhoWroteWhat({ load, label }: WhoWroteWhatProps) {
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setLoaded({ kind: 'loading' });
    load()
      .then(async (authorship) => ({ authorship, checked: await checkContent(authorship.content) }))
      .then(
        ({ authorship, checked }) => {
          if (!live) return;
          setLoaded(
            checked
              ? { kind: 'ready', content: checked.doc, authorship }
              : { kind: 'failed', message: "This couldn't be shown: its content is damaged." },
          );
        },
        (failure: unknown) =>
          live && setLoaded({ kind: 'failed', message: shareErrorText(failure) }),
      );
    return () => {
      live = false;
    };
  }, [load, attempt]);

  if (loaded.kind === 'loading') {
    return (
      <p className="ink-share__hint" role="status">
        Finding who wrote what…
      </p>
    );
  }
  if (loaded.kind === 'failed') {
    return (
      <div role="alert">
        <p className="ink-share__error">{loaded.message}</p>
        <button type="button" className="ink-button" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </div>
    );
  }
  const key = keyOf(loaded.authorship);
  const total = key.reduce((sum, entry) => sum + entry.characters, 0);
  return (
    <div className="ink-authorship">
      <ul className="ink-authorship__key" aria-label="Who wrote what">
        {key.map((entry) => (
          <li key={entry.index}>
            <span className={`ink-authorship__swatch ${authorClass(entry.index)}`} />
            {entry.name}
            <span className="ink-authorship__share">
              {total > 0 ? `${Math.round((entry.characters / total) * 100)}%` : ''}
            </span>
          </li>
        ))}
      </ul>
      <VersionPreview content={loaded.content} label={label} authorship={loaded.authorship} />
    </div>
  );
}

/** The people with text in the document, most text first; "Unknown" last when there is any. */
function keyOf({ authors, runs }: AuthorshipResponse): KeyEntry[] {
  const characters = new Map<number, number>();
  for (const [, from, to, author] of runs) {
    characters.set(author, (characters.get(author) ?? 0) + (to - from));
  }
  return [...characters]
    .map(([index, count]) => ({
      index,
      name: index < 0 ? 'Unknown' : (authors[index]?.name ?? 'Unknown'),
      characters: count,
    }))
    .sort((a, b) => (a.index < 0 ? 1 : b.index < 0 ? -1 : b.characters - a.characters));
}
