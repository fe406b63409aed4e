import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { DocumentMeta } from '../../../common/api/documents.ts';
import { DEFAULT_LIMITS } from '../../../common/api/limits.ts';
import { documentPath, matchRoute, navigate } from '../../app/router.ts';
import type { ApiError } from '../../lib/api.ts';
import { randomUuid } from '../../lib/randomUuid.ts';
import type { DocumentList } from './DocumentList.ts';
import { summaryOf } from './documentsApi.ts';
import { excerptOf } from './excerptOf.ts';
import { pendingDocuments } from './pendingDocuments.ts';

/** A document to make in this tab. */
export interface MadeDocument {
  /** Its title as the writer gave it (trimmed and cut to the limit here, as the server keeps it). */
  title: string;
  /** Its content, in the shared schema. */
  doc: ProseMirrorNode;
  /** Told when the server refuses it for good (too large, invalid), after the list forgot it. */
  onRefused: (error: ApiError) => void;
}

/**
 * Makes a document in this tab and opens it at once, under an id chosen here: the editor shows it
 * and takes typing before the server has it, and the editor's live document creates it in the
 * background, retrying while offline (pendingDocuments.ts, useLiveDocument.ts). The list shows it
 * as pending until created. Refused for good, it leaves the list, and the page goes back to where
 * it was made if it is still on it.
 */
export function openMadeDocument(list: DocumentList, made: MadeDocument): DocumentMeta {
  const now = new Date().toISOString();
  const record: DocumentMeta = {
    id: randomUuid(),
    title: made.title.slice(0, DEFAULT_LIMITS.titleChars).trim(),
    version: 1,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  const startedAt = window.location.pathname + window.location.search;
  pendingDocuments.add(
    { record, doc: made.doc },
    {
      onCreated: () => list.confirm(record.id),
      onRefused: (error) => {
        list.remove(record.id);
        made.onRefused(error);
        const route = matchRoute(window.location.pathname);
        if (route.name === 'document' && route.id === record.id) {
          navigate(startedAt, { replace: true });
        }
      },
    },
  );
  list.add(summaryOf(record, excerptOf(made.doc)), { pending: true });
  navigate(documentPath(record.id));
  return record;
}
