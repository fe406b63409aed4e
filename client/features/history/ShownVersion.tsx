import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import type { VersionSummary } from '../../../common/api/versions.ts';
import { downloadText, fileNameForTitle } from '../../lib/download.ts';
import { loadMarkdownCodec } from '../editor/markdown/codec.ts';
import { checkContent } from '../live/persistence/openDocument.ts';
import { shareErrorText } from '../sharing/shareErrors.ts';
import { WhoWroteWhat } from './authorship/WhoWroteWhat.tsx';
import {
  ComparedVersion,
  type CompareTarget,
  type DrawnComparison,
} from './compare/ComparedVersion.tsx';
import { VersionNameForm } from './VersionNameForm.tsx';
import { VersionPreview } from './VersionPreview.tsx';
import {
  versionAuthors,
  versionChange,
  versionFileTitle,
  versionMoment,
  versionTitle,
} from './versionLabels.ts';
import type { VersionsApi } from './versionsApi.ts';

/** Props of {@link ShownVersion}. */
export interface ShownVersionProps {
  documentId: string;
  /** The version to show, as the list has it. */
  version: VersionSummary;
  /** The document's title now, for the exported file's name. */
  title: string;
  api: VersionsApi;
  /** Takes the renamed version's summary into the list. */
  onRenamed: (version: VersionSummary) => void;
  /** Restores the version; rejects with what to say when it could not. Absent: not offered. */
  onRestore?: (version: VersionSummary, content: ProseMirrorNode) => Promise<void>;
  /** The versions listed so far, which it can be compared with. */
  versions?: readonly VersionSummary[];
  /** The document as it is now, as JSON text, to compare with; absent without an open editor. */
  current?: () => Promise<string>;
}

/** The compare choice of nothing, and of the document now. */
const NO_COMPARISON = '';
const NOW = 'now';

type Loaded =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; content: ProseMirrorNode };

/**
 * One version, read-only and drawn as the editor draws it, with what can be done with it: name
 * it, export it as Markdown, restore it. Its content is checked as any content from outside is.
 */
export function ShownVersion(props: ShownVersionProps) {
  const { documentId, version, title, api, onRenamed, onRestore, versions = [], current } = props;
  const compareId = useId();
  const [compareWith, setCompareWith] = useState(NO_COMPARISON);
  const [authorsShown, setAuthorsShown] = useState(false);
  const loadAuthorship = useCallback(
    () => api.authorship(documentId, version.id),
    [api, documentId, version.id],
  );
  const others = versions.filter((other) => other.id !== version.id);
  const compareVersion = others.find((other) => other.id === compareWith);
  // One object per choice, so the comparison runs again only when the choice changes.
  const target = useMemo<CompareTarget | null>(() => {
    if (compareWith === NOW) return current ? { kind: 'now', content: current } : null;
    return compareVersion ? { kind: 'version', version: compareVersion } : null;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [compareWith, compareVersion?.id]);
  /** The comparison drawn in place of the version, and the change stepped to in it. */
  const [comparison, setComparison] = useState<DrawnComparison | null>(null);
  const [currentChange, setCurrentChange] = useState(-1);
  const compare = (choice: string) => {
    setCompareWith(choice);
    setComparison(null);
    setCurrentChange(-1);
  };
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [renaming, setRenaming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setLoaded({ kind: 'loading' });
    api
      .get(documentId, version.id)
      .then((answer) => checkContent(answer.content))
      .then(
        (checked) => {
          if (!live) return;
          setLoaded(
            checked
              ? { kind: 'ready', content: checked.doc }
              : {
                  kind: 'failed',
                  message: "This version couldn't be shown: its content is damaged.",
                },
          );
        },
        (failure: unknown) =>
          live && setLoaded({ kind: 'failed', message: shareErrorText(failure) }),
      );
    return () => {
      live = false;
    };
  }, [api, documentId, version.id, attempt]);

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(failure instanceof RestoreRefused ? failure.message : shareErrorText(failure));
    } finally {
      setBusy(false);
    }
  };

  const exportMarkdown = (content: ProseMirrorNode) =>
    act(async () => {
      const [{ serializeMarkdown }, { withAbsoluteFileUrls }] = await Promise.all([
        loadMarkdownCodec(),
        import('../editor/uploads/imageSources.ts'),
      ]);
      // Uploaded images by absolute address, so the file shows them outside Inkwell too.
      const markdown = serializeMarkdown(withAbsoluteFileUrls(content, window.location.origin));
      const name = fileNameForTitle(versionFileTitle(title, version), 'md');
      downloadText(name, markdown, 'text/markdown;charset=utf-8');
    });

  const when = versionMoment(version);
  return (
    <div className="ink-history__shown">
      <header className="ink-history__shown-header">
        <div className="ink-history__shown-title">
          <h3>{versionTitle(version)}</h3>
          <p className="ink-share__hint">
            {when}
            {version.authors.length > 0 ? ` · ${versionAuthors(version)}` : ''} ·{' '}
            {versionChange(version)}
          </p>
        </div>
        {loaded.kind === 'ready' ? (
          <div className="ink-share__row">
            <button
              type="button"
              className="ink-button"
              disabled={busy}
              onClick={() => setRenaming(true)}
            >
              {version.name ? 'Rename…' : 'Name…'}
            </button>
            <button
              type="button"
              className="ink-button"
              disabled={busy}
              onClick={() => void exportMarkdown(loaded.content)}
            >
              Export as Markdown
            </button>
            <button
              type="button"
              className="ink-button"
              aria-pressed={authorsShown}
              onClick={() => {
                setAuthorsShown((shown) => !shown);
                compare(NO_COMPARISON);
              }}
            >
              Who wrote what
            </button>
            {onRestore ? (
              <button
                type="button"
                className="ink-button ink-button--primary"
                disabled={busy}
                onClick={() => void act(() => onRestore(version, loaded.content))}
              >
                Restore this version
              </button>
            ) : null}
          </div>
        ) : null}
      </header>
      {renaming ? (
        <VersionNameForm
          label="Name of this version"
          initial={version.name ?? ''}
          onCancel={() => setRenaming(false)}
          onSave={async (name) => {
            onRenamed(await api.rename(documentId, version.id, name));
            setRenaming(false);
          }}
        />
      ) : null}
      {error ? (
        <p role="alert" className="ink-share__error">
          {error}
        </p>
      ) : null}
      {loaded.kind === 'ready' && (current || others.length > 0) ? (
        // A form of its own: Chrome's autofill, on a change of a control outside any form, looks
        // at every such control in the page, laying out each part of both long documents that
        // holds one (a 50-90 ms task). docs/ARCHITECTURE.md "Form controls".
        <form className="ink-compare__choice" onSubmit={(event) => event.preventDefault()}>
          <label htmlFor={compareId}>Compare with</label>
          <select
            id={compareId}
            className="ink-input ink-share__select"
            value={compareWith}
            onChange={(event) => {
              compare(event.target.value);
              setAuthorsShown(false);
            }}
          >
            <option value={NO_COMPARISON}>Nothing: show this version</option>
            {current ? <option value={NOW}>The document now</option> : null}
            {others.map((other) => (
              <option key={other.id} value={other.id}>
                {versionTitle(other)}, {versionMoment(other)}
              </option>
            ))}
          </select>
        </form>
      ) : null}
      {loaded.kind === 'loading' ? (
        <p className="ink-share__hint" role="status">
          Loading the version…
        </p>
      ) : loaded.kind === 'failed' ? (
        <div role="alert">
          <p className="ink-share__error">{loaded.message}</p>
          <button type="button" className="ink-button" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </div>
      ) : authorsShown ? (
        <WhoWroteWhat
          load={loadAuthorship}
          label={`Who wrote what in ${versionTitle(version)}, ${when}`}
        />
      ) : (
        <>
          {target ? (
            <ComparedVersion
              documentId={documentId}
              version={version}
              content={loaded.content}
              target={target}
              api={api}
              current={currentChange}
              onStep={setCurrentChange}
              onCompared={setComparison}
            />
          ) : null}
          <VersionPreview
            content={comparison?.doc ?? loaded.content}
            label={comparison?.label ?? `${versionTitle(version)}, ${when}`}
            changes={comparison?.changes}
            current={currentChange}
          />
        </>
      )}
    </div>
  );
}

/** A restore refused before anything was sent, with the sentence to show. */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}
