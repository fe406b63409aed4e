import type { JSONContent } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { useEffect, useState } from 'react';
import type { VersionSummary } from '../../../../common/api/versions.ts';
import { inkwellSchema } from '../../../../common/editor/extensions.ts';
import { checkContent } from '../../live/persistence/openDocument.ts';
import { shareErrorText } from '../../sharing/shareErrors.ts';
import { versionMoment, versionTitle } from '../versionLabels.ts';
import type { VersionsApi } from '../versionsApi.ts';
import type { Change } from './compareDocuments.ts';
import { compareSchemaOf } from './compareSchema.ts';
import { runComparison } from './runComparison.ts';
import type { CompareSide } from './sendableComparison.ts';

/**
 * What a shown version is compared with: the document now (its content as JSON text, written as
 * the server writes a version's: contentText.ts), or another version.
 */
export type CompareTarget =
  { kind: 'now'; content: () => Promise<string> } | { kind: 'version'; version: VersionSummary };

/** Props of {@link ComparedVersion}. */
export interface ComparedVersionProps {
  documentId: string;
  /** The version shown, and its content (checked). */
  version: VersionSummary;
  content: ProseMirrorNode;
  target: CompareTarget;
  api: VersionsApi;
  /** The change stepped to, -1 for none, and how to step to another. */
  current: number;
  onStep: (change: number) => void;
  /** Takes the compared document to draw in place of the version, once it is built. */
  onCompared: (compared: DrawnComparison) => void;
}

/** A comparison ready to draw: the compared document, its changes, and its accessible name. */
export interface DrawnComparison {
  doc: ProseMirrorNode;
  changes: readonly Change[];
  label: string;
}

type Compared =
  | { kind: 'comparing' }
  | { kind: 'failed'; message: string }
  | { kind: 'tooLarge' }
  | {
      kind: 'ready';
      /** The compared document's blocks as the worker sent them (sendableComparison.ts). */
      blocks: number[];
      newBlocksJson: string;
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

/** What the colours of a comparison mean. */
const LEGEND = (
  <p className="ink-compare__legend" aria-hidden="true">
    <span className="ink-diff ink-diff--inserted">Added</span>{' '}
    <span className="ink-diff ink-diff--deleted">Removed</span>{' '}
    <span className="ink-diff ink-diff--formatted">Formatted</span>{' '}
    <span className="ink-diff ink-diff--movedTo">Moved</span>
  </p>
);

/** The newer of two versions: ids grow with time. */
const newerOf = (a: VersionSummary, b: VersionSummary) => (BigInt(a.id) > BigInt(b.id) ? a : b);

const describe = (version: VersionSummary) => `${versionTitle(version)}, ${versionMoment(version)}`;

/**
 * A version compared with another or with the document now (docs/PRODUCT.md "Version history"):
 * the count and the list of changes to step through, and the compared document (the newer with
 * the older's differences in place) handed to `onCompared`, for the version's view to draw in
 * place of the version.
 */
export function ComparedVersion({
  documentId,
  version,
  content,
  target,
  api,
  current,
  onStep,
  onCompared,
}: ComparedVersionProps) {
  const [compared, setCompared] = useState<Compared>({ kind: 'comparing' });
  /**
   * Whether the compared document is built, a frame after the count and the list: the changes
   * are worth reading meanwhile.
   */
  const [drawn, setDrawn] = useState<'drawing' | 'drawn' | 'failed'>('drawing');

  useEffect(() => {
    let live = true;
    let cancel = () => {};
    setCompared({ kind: 'comparing' });
    setDrawn('drawing');
    const olderIsShown = target.kind === 'now' || newerOf(version, target.version) !== version;
    const label =
      target.kind === 'now'
        ? `Changes from ${describe(version)} to now`
        : olderIsShown
          ? `Changes from ${describe(version)} to ${describe(target.version)}`
          : `Changes from ${describe(target.version)} to ${describe(version)}`;
    // Both versions as the server wrote them, read in the worker: the shown one was read a
    // moment ago and is remembered (versionsApi.ts).
    const shown = api.read(documentId, version.id).then((answer): CompareSide => ({ answer }));
    const other =
      target.kind === 'now'
        ? target.content().then((content): CompareSide => ({ content }))
        : api.read(documentId, target.version.id).then((answer): CompareSide => ({ answer }));
    Promise.all([shown, other])
      .then(([shownSide, otherSide]) => {
        if (!live) return null;
        const running = runComparison({
          older: olderIsShown ? shownSide : otherSide,
          newer: olderIsShown ? otherSide : shownSide,
          drawn: { side: olderIsShown ? 'older' : 'newer', blocks: content.childCount },
          schema: compareSchemaOf(inkwellSchema()),
        });
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
            blocks: result.blocks,
            newBlocksJson: result.newBlocksJson,
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
    let live = true;
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Two frames on: the first paints the count and the list, whatever else waits on it.
    frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        timer = setTimeout(() => {
          comparedDocument(content, compared.blocks, compared.newBlocksJson).then(
            (doc) => {
              if (!live) return;
              setDrawn(doc ? 'drawn' : 'failed');
              if (doc) onCompared({ doc, changes: compared.changes, label: compared.label });
            },
            () => live && setDrawn('failed'),
          );
        });
      });
    });
    return () => {
      live = false;
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [compared, content, onCompared]);

  if (compared.kind === 'comparing') {
    // The rows the comparison will have, so that the version below does not jump when it comes.
    return (
      <div className="ink-compare">
        <div className="ink-compare__bar">
          <p className="ink-share__hint" role="status">
            Comparing…
          </p>
        </div>
        {LEGEND}
        <details className="ink-compare__changes">
          <summary>List of changes</summary>
        </details>
      </div>
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
    onStep(
      current < 0
        ? by > 0
          ? 0
          : changes.length - 1
        : (current + by + changes.length) % changes.length,
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
        {drawn === 'drawing' ? (
          <span className="ink-compare__position" role="status">
            Drawing the changes…
          </span>
        ) : null}
      </div>
      {LEGEND}
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
                  onClick={() => onStep(index)}
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
      {drawn === 'failed' ? (
        <p role="alert" className="ink-share__error">
          The comparison couldn&apos;t be drawn.
        </p>
      ) : null}
    </div>
  );
}

/**
 * The compared document: the blocks it shares with the version shown taken from there, already
 * built and checked; the others read and checked as any content from outside is. Null when those
 * are damaged.
 */
async function comparedDocument(
  shown: ProseMirrorNode,
  blocks: readonly number[],
  newBlocksJson: string,
): Promise<ProseMirrorNode | null> {
  const newBlocks = JSON.parse(newBlocksJson) as JSONContent[];
  let added: ProseMirrorNode | null = null;
  if (newBlocks.length > 0) {
    const checked = await checkContent({ type: 'doc', content: newBlocks });
    if (!checked || checked.doc.childCount !== newBlocks.length) return null;
    added = checked.doc;
  }
  let next = 0;
  const children = blocks.map((index) => (index >= 0 ? shown.child(index) : added!.child(next++)));
  return shown.type.create(shown.attrs, children);
}

/** A change in a few words: what it removed and what it added, quoted. */
function changeExcerpt(change: Change): string {
  const quote = (text: string) => `\u201c${text.trim() || ' '}\u201d`;
  if (change.kind === 'replaced')
    return `${quote(change.removedText)} to ${quote(change.addedText)}`;
  if (change.kind === 'deleted') return quote(change.removedText);
  return quote(change.addedText || change.removedText);
}
