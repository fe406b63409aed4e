import { useEffect, useRef, useState } from 'react';
import type { Backlink } from '../../../../../common/api/links.ts';
import {
  headingOf,
  type WikilinkParts,
} from '../../../../../common/editor/dialects/wikilink/wikilinkSyntax.ts';
import {
  isAttachment,
  titleKey,
} from '../../../../../common/editor/dialects/wikilink/wikilinkTarget.ts';
import { Link } from '../../../../app/Link.tsx';
import { documentPath, navigate } from '../../../../app/router.ts';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.tsx';
import { useToast } from '../../../../components/toastContext.ts';
import { useDocumentList, useDocumentListState } from '../../../documents/documentListContext.ts';
import { createDocument, summaryOf } from '../../../documents/documentsApi.ts';
import { displayTitle, failureMessage } from '../../../documents/useDocumentActions.ts';
import { onOpenRequest, requestHeading, showHeadingOnOpen } from './openRequest.ts';
import { getBacklinks, renameLinks, resolveLinks } from './wikilinksApi.ts';

/** How long a title has to stay put before the links to its old name are counted. */
const RENAME_SETTLE_MS = 1200;
const MAX_TITLE_CHARS = 200;

/** Props of {@link WikilinkPanel}. */
export interface WikilinkPanelProps {
  /** The open document. */
  documentId: string;
  /** Its title on the server when it was opened: the name links used until a rename. */
  openedTitle: string;
  /** Whether the server has the document yet (one made in this tab arrives with its first save). */
  onServer: boolean;
}

/** The title a document created from an unresolved link gets: the target's last segment. */
function titleFor(target: string): string {
  const name = target.slice(target.lastIndexOf('/') + 1).replace(/\.md$/i, '');
  return name.trim().slice(0, MAX_TITLE_CHARS);
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The page's side of wikilinks (docs/PRODUCT.md "Markdown"): opens the target of a clicked
 * link (or offers to create it), lists the documents that link here ("Linked from"), and after
 * a rename offers to update the links that still use the old title.
 */
export function WikilinkPanel({ documentId, openedTitle, onServer }: WikilinkPanelProps) {
  const toast = useToast();
  const list = useDocumentList();
  const { documents } = useDocumentListState();
  const savedTitle = documents.find((row) => row.id === documentId)?.title ?? openedTitle;
  const [backlinks, setBacklinks] = useState<Backlink[]>([]);
  const [toCreate, setToCreate] = useState<string | null>(null);
  // The title the writer's links know this document by: updated once they follow a rename.
  const linkedAs = useRef(openedTitle);
  const latestTitle = useRef(savedTitle);
  useEffect(() => {
    latestTitle.current = savedTitle;
  }, [savedTitle]);

  useEffect(() => {
    if (!onServer) return;
    let live = true;
    getBacklinks(documentId).then(
      (rows) => live && setBacklinks(rows),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [documentId, savedTitle, onServer]);

  useEffect(
    () =>
      onOpenRequest((parts: WikilinkParts) => {
        const target = parts.target.trim();
        if (isAttachment(target)) {
          toast.show(
            `“${target}” is an attachment: they are not available yet. It stays as written.`,
          );
          return;
        }
        resolveLinks([target]).then(
          ([found]) => {
            if (!found) return setToCreate(titleFor(target));
            const heading = headingOf(parts.fragment);
            if (found.id === documentId) {
              if (heading) requestHeading(heading);
              return;
            }
            if (heading) showHeadingOnOpen(found.id, heading);
            navigate(documentPath(found.id));
          },
          (error: unknown) => {
            const message = failureMessage(error, 'open the link');
            if (message) toast.show(message, 'error');
          },
        );
      }),
    [toast, documentId],
  );

  useEffect(() => {
    const from = linkedAs.current;
    if (titleKey(from) === titleKey(savedTitle)) return;
    if (from.trim() === '') {
      linkedAs.current = savedTitle;
      return;
    }
    let live = true;
    const timer = window.setTimeout(() => {
      getBacklinks(documentId, from).then(
        (rows) => {
          if (!live) return;
          const count = rows.reduce((sum, row) => sum + row.links, 0);
          if (count === 0) {
            linkedAs.current = savedTitle;
            return;
          }
          toast.show(
            `${plural(count, 'link')} in ${plural(rows.length, 'document')} still ${count === 1 ? 'points' : 'point'} to “${from}”.`,
            'info',
            { label: `Update ${plural(count, 'link')}`, run: () => void update(from) },
          );
        },
        () => undefined,
      );
    }, RENAME_SETTLE_MS);
    const update = async (oldTitle: string) => {
      try {
        const done = await renameLinks(documentId, oldTitle);
        linkedAs.current = latestTitle.current;
        toast.show(
          `Updated ${plural(done.links, 'link')} in ${plural(done.documents, 'document')}.`,
        );
        void list.refresh();
        setBacklinks(await getBacklinks(documentId));
      } catch (error) {
        const message = failureMessage(error, 'update the links');
        if (message) toast.show(message, 'error');
      }
    };
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [documentId, savedTitle, toast, list]);

  const create = async (title: string) => {
    setToCreate(null);
    try {
      const document = await createDocument({ title });
      list.add(summaryOf(document));
      navigate(documentPath(document.id));
    } catch (error) {
      const message = failureMessage(error, 'create the document');
      if (message) toast.show(message, 'error');
    }
  };

  return (
    <>
      {backlinks.length > 0 ? (
        <section className="ink-backlinks" aria-label="Backlinks">
          <h2>Linked from</h2>
          <ul>
            {backlinks.map((row) => (
              <li key={row.id}>
                <Link href={documentPath(row.id)}>{displayTitle(row.title)}</Link>
                {row.links > 1 ? ` (${row.links} links)` : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {toCreate !== null ? (
        <ConfirmDialog
          open
          title={`Create “${toCreate}”?`}
          message="No document has this title yet. Create it and open it?"
          confirmLabel="Create document"
          onConfirm={() => void create(toCreate)}
          onCancel={() => setToCreate(null)}
        />
      ) : null}
    </>
  );
}
