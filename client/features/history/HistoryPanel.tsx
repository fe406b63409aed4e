import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { VersionSummary } from '../../../common/api/versions.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { useToast } from '../../components/toastContext.ts';
import { restoreVersion } from '../live/collab/restoreVersion.ts';
import { shareErrorText } from '../sharing/shareErrors.ts';
import '../sharing/sharing.css';
import { RestoreRefused, ShownVersion } from './ShownVersion.tsx';
import { WhoWroteWhat } from './authorship/WhoWroteWhat.tsx';
import { contentText } from './compare/contentText.ts';
import { VersionList } from './VersionList.tsx';
import { VersionNameForm } from './VersionNameForm.tsx';
import { versionMoment } from './versionLabels.ts';
import { versionsApi, withRecentVersions, type VersionsApi } from './versionsApi.ts';
import './history.css';

/** Props of {@link HistoryPanel}. */
export interface HistoryPanelProps {
  /** The document whose versions are shown; the reader is its owner or an editor. */
  documentId: string;
  /** The document's title now, for exported files. */
  title: string;
  /**
   * The page's editor on the live document, which a restore changes; null (or read-only) when it
   * cannot be written now, and then nothing is restored.
   */
  editor: Editor | null;
  /** Closes the panel. */
  onClose: () => void;
  /** The version-history API; tests pass one on a fetch double. */
  api?: VersionsApi;
  /** The time now, for "Today" and "Yesterday" (tests fix it). */
  now?: () => Date;
}

type Listed =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; versions: VersionSummary[]; next: string | null };

const CANNOT_WRITE = "This document can't be changed right now, so nothing was restored.";

/**
 * Version history (docs/PRODUCT.md "Version history"): the document's versions newest first by
 * day, one shown read-only with its actions, and the current state kept under a name. Loaded on
 * first use, with the editor page's History button.
 */
export function HistoryPanel(props: HistoryPanelProps) {
  const { documentId, title, editor, onClose, now = () => new Date() } = props;
  const api = useMemo(() => withRecentVersions(props.api ?? versionsApi), [props.api]);
  const toast = useToast();
  const [listed, setListed] = useState<Listed>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [more, setMore] = useState<{ busy: boolean; error: string | null }>({
    busy: false,
    error: null,
  });
  const [selected, setSelected] = useState<VersionSummary | null>(null);
  /** Whether the view shows who wrote what in the document now, rather than a version. */
  const [nowAuthors, setNowAuthors] = useState(false);
  const loadNowAuthorship = useCallback(() => api.authorship(documentId, null), [api, documentId]);
  const show = (version: VersionSummary) => {
    setNowAuthors(false);
    setSelected(version);
  };
  const [naming, setNaming] = useState(false);

  useEffect(() => {
    let live = true;
    setListed({ kind: 'loading' });
    api.list(documentId).then(
      ({ versions, next }) => live && setListed({ kind: 'ready', versions, next }),
      (failure: unknown) => live && setListed({ kind: 'failed', message: shareErrorText(failure) }),
    );
    return () => {
      live = false;
    };
  }, [api, documentId, attempt]);

  const showMore = async (before: string) => {
    setMore({ busy: true, error: null });
    try {
      const page = await api.list(documentId, before);
      setListed((current) =>
        current.kind === 'ready'
          ? { kind: 'ready', versions: [...current.versions, ...page.versions], next: page.next }
          : current,
      );
      setMore({ busy: false, error: null });
    } catch (failure) {
      setMore({ busy: false, error: shareErrorText(failure) });
    }
  };

  /** A version the server answered with: replaces the one with its id, or comes first (newest). */
  const take = useCallback((version: VersionSummary) => {
    setListed((current) => {
      if (current.kind !== 'ready') return current;
      const known = current.versions.some((v) => v.id === version.id);
      const versions = known
        ? current.versions.map((v) => (v.id === version.id ? version : v))
        : [version, ...current.versions];
      return { ...current, versions };
    });
    setSelected((shown) => (shown?.id === version.id ? version : shown));
  }, []);

  const restore = async (version: VersionSummary, content: ProseMirrorNode) => {
    if (!editor?.isEditable) throw new RestoreRefused(CANNOT_WRITE);
    // The server keeps the state of now first, so that the restore can itself be undone later.
    await api.keepBeforeRestore(documentId, version.id);
    if (!restoreVersion(editor, content)) throw new RestoreRefused(CANNOT_WRITE);
    onClose();
    toast.show(`Restored the version of ${versionMoment(version)}`);
  };

  return (
    <Dialog open title="Version history" onClose={onClose} className="ink-dialog--history">
      <div className="ink-history">
        <div className="ink-history__list">
          {naming ? (
            <VersionNameForm
              label="Name of the current version"
              onCancel={() => setNaming(false)}
              onSave={async (name) => {
                take(await api.keep(documentId, name));
                setNaming(false);
              }}
            />
          ) : (
            <div className="ink-share__row ink-history__actions">
              <button
                type="button"
                className="ink-button"
                data-autofocus
                disabled={listed.kind !== 'ready'}
                onClick={() => setNaming(true)}
              >
                Name current version…
              </button>
              <button
                type="button"
                className="ink-button"
                aria-pressed={nowAuthors}
                onClick={() => {
                  setSelected(null);
                  setNowAuthors(true);
                }}
              >
                Who wrote what now
              </button>
            </div>
          )}
          {listed.kind === 'loading' ? (
            <p className="ink-share__hint" role="status">
              Loading…
            </p>
          ) : listed.kind === 'failed' ? (
            <div role="alert">
              <p className="ink-share__error">{listed.message}</p>
              <button type="button" className="ink-button" onClick={() => setAttempt((n) => n + 1)}>
                Try again
              </button>
            </div>
          ) : listed.versions.length === 0 ? (
            <p className="ink-share__hint">
              No versions yet. A version is kept a few minutes after editing pauses, when the last
              writer leaves and every 30 minutes of editing; name the current version to keep it
              now.
            </p>
          ) : (
            <>
              <VersionList
                versions={listed.versions}
                selectedId={selected?.id ?? null}
                onSelect={show}
                now={now()}
              />
              {listed.next ? (
                <button
                  type="button"
                  className="ink-button"
                  disabled={more.busy}
                  onClick={() => listed.next && void showMore(listed.next)}
                >
                  {more.busy ? 'Loading…' : 'Show more'}
                </button>
              ) : null}
              {more.error ? (
                <p role="alert" className="ink-share__error">
                  {more.error}
                </p>
              ) : null}
            </>
          )}
        </div>
        <div className="ink-history__view">
          {nowAuthors ? (
            <div className="ink-history__shown">
              <header className="ink-history__shown-header">
                <div className="ink-history__shown-title">
                  <h3>The document now</h3>
                  <p className="ink-share__hint">
                    Each run of text in the colour of the person who wrote it.
                  </p>
                </div>
              </header>
              <WhoWroteWhat load={loadNowAuthorship} label="Who wrote what in the document now" />
            </div>
          ) : selected ? (
            <ShownVersion
              key={selected.id}
              documentId={documentId}
              version={selected}
              title={title}
              api={api}
              onRenamed={take}
              onRestore={editor ? restore : undefined}
              versions={listed.kind === 'ready' ? listed.versions : []}
              current={editor ? () => contentText(editor.state.doc) : undefined}
            />
          ) : (
            <p className="ink-share__hint">Choose a version to see it.</p>
          )}
        </div>
      </div>
    </Dialog>
  );
}
