import type { Node as PMNode } from '@tiptap/pm/model';
import type { JSONContent } from '@tiptap/core';
import { prosemirrorToYXmlFragment, yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import type { DocumentContent } from '../../common/api/documents.ts';
import { restoreCarriedMarks, withCarriedMarks } from '../../common/editor/collab/inlineMarks.ts';
import { inkwellSchema } from '../../common/editor/extensions.ts';

/**
 * The XmlFragment of a document's Y.Doc that holds its ProseMirror content: Tiptap's
 * Collaboration extension uses `default` unless told otherwise, and the editor keeps that
 * (docs/ARCHITECTURE.md "Live collaboration").
 */
export const CONTENT_FIELD = 'default';

/**
 * A new Y.Doc holding `json` (the stored, unchunked schema). Only the server does this, once per
 * document, under a row lock: two clients seeding the same JSON would each insert it, and the
 * document would hold it twice (hocuspocus#509).
 */
export function yDocFromContent(json: DocumentContent): Y.Doc {
  const doc = new Y.Doc();
  // Marks on inline nodes other than text travel in an attribute (inlineMarks.ts).
  const node = withCarriedMarks(inkwellSchema().nodeFromJSON(json));
  prosemirrorToYXmlFragment(node, doc.getXmlFragment(CONTENT_FIELD));
  return doc;
}

/**
 * The document node a Y.Doc holds; an empty fragment is the schema's smallest document. Carried
 * marks the schema refuses are left out (the guard refuses them in updates; this reads what the
 * state holds, whatever it is).
 */
export function nodeOfYDoc(doc: Y.Doc): PMNode {
  const schema = inkwellSchema();
  const raw = yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(CONTENT_FIELD)) as JSONContent;
  const json = restoreCarriedMarks(raw, schema, () => undefined) as DocumentContent;
  if (!Array.isArray(json.content) || json.content.length === 0) {
    return schema.topNodeType.createAndFill()!;
  }
  return schema.nodeFromJSON(json);
}

/**
 * The ProseMirror JSON a Y.Doc holds, canonicalised through the schema (defaults filled in,
 * adjacent text with the same marks joined): what `documents.content` stores, so that a store of
 * an unchanged document writes the same text and does not look like an edit.
 */
export function contentOfYDoc(doc: Y.Doc): DocumentContent {
  return nodeOfYDoc(doc).toJSON() as DocumentContent;
}

/** `json` as the schema would write it back, for comparing stored content with derived content. */
export function canonicalContent(json: DocumentContent): DocumentContent {
  return inkwellSchema().nodeFromJSON(json).toJSON() as DocumentContent;
}
