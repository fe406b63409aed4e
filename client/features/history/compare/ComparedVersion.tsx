import type { JSONContent } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { useEffect, useState } from 'react';
import type { VersionSummary } from '../../../../common/api/versions.ts';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { checkContent } from '../../live/persistence/openDocument.ts';
import { shareErrorText } from '../../sharing/shareErrors.ts';
import { VersionPreview } from '../VersionPreview.tsx';
import { versionMoment, versionTitle } from '../versionLabels.ts';
import type { VersionsApi } from '../versionsApi.ts';
import type { Change } from './compareDocuments.ts';
import { compareSchemaOf } from './compareSchema.ts';
import { runComparison } from './runComparison.ts';

/** What a shown version is compared with: the document now, or another version. */
export type CompareTarget =
  { kind: 'now'; content: () => JSONContent } | { kind: 'version'; version: VersionSummary };

/** Props of {@link ComparedVersion}. */
export interface ComparedVersionProps {
  documentId: string;
  /** The version shown, and its content (checked). */
  version: VersionSummary;
  content: ProseMirrorNode;
  target: CompareTarget;
  api: VersionsApi;
}

type Compared =
  | { kind: 'comparing' }
  | { kind: 'failed'; message: string }
  | { kind: 'tooLarge' }
  | {
      kind: 'ready';
      /** The compared document as JSON text: read into the schema when it is drawn. */
      json: string;
      changes: Change[];
      added: number;
      removed: number;
      label: string;
    };

/** Most changes the list names; the document shows them all. */
const LISTED_CHANGES = 500;

const CHANGE_WORDS: Record<Change['kind'], string> = {
  inserted: 'Added',
  deleted: 'Removed',
  replaced: 'Changed',
  formatted: 'Formatted',
  moved: 'Moved',
};

/** The newer of two versions: ids grow with time. */
const newerOf = (a: VersionSummary, b: VersionSummary) => (BigInt(a.id) > BigInt(b.id) ? a : b);

const describe = (version: VersionSummary) => `${versionTitle(version)}, ${versionMoment(version)}`;

/**
 * A version compared with another or with the document now (docs/PRODUCT.md "Version history"):
 * the newer drawn with the older's differences in place, and the changes to step through.
 */
export function ComparedVersion({
  documentId,
  version,
  content,
  target,
  api,
}: ComparedVersionProps) {
  const [compared, setCompared] = useState<Compared>({ kind: 'comparing' });
  const [current, setCurrent] = useState(-1);
  /**
   * The compared document, drawn a frame after the count and the list: drawing a long document
   * takes as long as opening it, and the changes are worth reading meanwhile.
   */
  const [drawn, setDrawn] = useState<{ doc: ProseMirrorNode } | { failed: true } | null>(null);

  useEffect(() => {
    let live = true;
    let cancel = () => {};
    setCompared({ kind: 'comparing' });
    setCurrent(-1);
    setDrawn(null);
    const shown = content.toJSON() as JSONContent;
    const other =
      target.kind === 'now'
        ? Promise.resolve(target.content())
        : api
            .get(documentId, target.version.id)
            .then((answer) => checkContent(answer.content))
            .then((checked) => {
              if (!checked) throw new Error("The other version couldn't be read: it is damaged.");
              // As the shown one is: every attribute written out, so equal blocks are equal.
              return checked.doc.toJSON() as JSONContent;
            });
    const olderIsShown = target.kind === 'now' || newerOf(version, target.version) !== version;
    const label =
      target.kind === 'now'
        ? `Changes from ${describe(version)} to now`
        : olderIsShown
          ? `Changes from ${describe(version)} to ${describe(target.version)}`
          : `Changes from ${describe(target.version)} to ${describe(version)}`;
    other
      .then((json) => {
        if (!live) return null;
        const running = runComparison(
          olderIsShown ? shown : json,
          olderIsShown ? json : shown,
          compareSchemaOf(inkwellSchema()),
        );
        cancel = running.cancel;
        return running.result;
      })
      .then(
        (result) => {
          if (!live || !result) return;
          if (result.kind === 'tooLarge') {
            setCompared({ kind: 'tooLarge' });
            return;
          }
          setCompared({
            kind: 'ready',
            json: result.docJson,
            changes: result.changes,
            added: result.added,
            removed: result.removed,
            label,
          });
        },
        (failure: unknown) =>
          live &&
          setCompared({
            kind: 'failed',
            message:
              failure instanceof Error && !('code' in failure)
                ? failure.message
                : shareErrorText(failure),
          }),
      );
    return () => {
      live = false;
      cancel();
    };
  }, [api, documentId, version, content, target]);

  useEffect(() => {
    if (compared.kind !== 'ready') return;
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Two frames on: the first paints the count and the list, whatever else waits on it.
    frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        timer = setTimeout(() => {
          try {
            setDrawn({ doc: inkwellSchema().nodeFromJSON(JSON.parse(compared.json)) });
          } catch {
            setDrawn({ failed: true });
          }
        });
      });
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [compared]);

  if (compared.kind === 'comparing') {
    return (
      <p className="ink-share__hint" role="status">
        Comparing…
      </p>
    );
  }
  if (compared.kind === 'failed') {
    return (
      <p role="alert" className="ink-share__error">
        {compared.message}
      </p>
    );
  }
  if (compared.kind === 'tooLarge') {
    return (
      <p role="alert" className="ink-share__error">
        These versions differ too much to compare in place. Open each one to read it.
      </p>
    );
  }
  const { changes } = compared;
  const step = (by: number) =>
    setCurrent((at) =>
      at < 0 ? (by > 0 ? 0 : changes.length - 1) : (at + by + changes.length) % changes.length,
    );
  return (
    <div className="ink-compare">
      <div className="ink-compare__bar">
        <p className="ink-share__hint" role="status">
          {changes.length === 0
            ? 'No changes between these two.'
            : `${changes.length.toLocaleString()} ${changes.length === 1 ? 'change' : 'changes'} · +${compared.added.toLocaleString()} \u2212${compared.removed.toLocaleString()}`}
        </p>
        {changes.length > 0 ? (
          <div className="ink-share__row">
            <button type="button" className="ink-button" onClick={() => step(-1)}>
              Previous change
            </button>
            <button type="button" className="ink-button" onClick={() => step(1)}>
              Next change
            </button>
            {current >= 0 ? (
              <span className="ink-compare__position">
                {current + 1} of {changes.length}
              </span>
            ) : null}
          </div>
        ) : null}
      </div>
      <p className="ink-compare__legend" aria-hidden="true">
        <span className="ink-diff ink-diff--inserted">Added</span>{' '}
        <span className="ink-diff ink-diff--deleted">Removed</span>{' '}
        <span className="ink-diff ink-diff--formatted">Formatted</span>{' '}
        <span className="ink-diff ink-diff--movedTo">Moved</span>
      </p>
      {changes.length > 0 ? (
        <details className="ink-compare__changes">
          <summary>List of changes</summary>
          <ol>
            {changes.slice(0, LISTED_CHANGES).map((change, index) => (
              <li key={index}>
                <button
                  type="button"
                  className="ink-compare__change"
                  aria-current={index === current ? 'true' : undefined}
                  onClick={() => setCurrent(index)}
                >
                  <strong>{CHANGE_WORDS[change.kind]}</strong> {changeExcerpt(change)}
                </button>
              </li>
            ))}
          </ol>
          {changes.length > LISTED_CHANGES ? (
            <p className="ink-share__hint">
              And {(changes.length - LISTED_CHANGES).toLocaleString()} more: step through them with
              Next change.
            </p>
          ) : null}
        </details>
      ) : null}
      {drawn === null ? (
        <p className="ink-share__hint" role="status">
          Drawing the changes…
        </p>
      ) : 'failed' in drawn ? (
        <p role="alert" className="ink-share__error">
          The comparison couldn&apos;t be drawn.
        </p>
      ) : (
        <VersionPreview
          content={drawn.doc}
          label={compared.label}
          changes={changes}
          current={current}
        />
      )}
    </div>
  );
}

/** A change in a few words: what it removed and what it added, quoted. */
function changeExcerpt(change: Change): string {
  const quote = (text: string) => `\u201c${text.trim() || ' '}\u201d`;
  if (change.kind === 'replaced')
    return `${quote(change.removedText)} to ${quote(change.addedText)}`;
  if (change.kind === 'deleted') return quote(change.removedText);
  return quote(change.addedText || change.removedText);
}
