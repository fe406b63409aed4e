import type { Node as PMNode } from '@tiptap/pm/model';
import type { JSONContent } from '@tiptap/core';
import { prosemirrorToYXmlFragment, yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import type { DocumentContent } from '../../common/api/documents.ts';
import { restoreCarriedMarks, withCarriedMarks } from '../../common/editor/collab/inlineMarks.ts';
import { compactJson } from '../../common/editor/compactJson.ts';
import { inkwellSchema } from '../../common/editor/extensions.ts';

/**
 * The XmlFragment of a document's Y.Doc that holds its ProseMirror content: Tiptap's
 * Collaboration extension uses `default` unless told otherwise, and the editor keeps that
 * (docs/ARCHITECTURE.md "Live collaboration").
 */
export const CONTENT_FIELD = 'default';

/**
 * A Y.Doc holding `json` (the stored, unchunked schema): `doc`, which must be empty, or a new
 * one. Only the server does this, once per document, under a row lock: two clients seeding the
 * same JSON would each insert it, and the document would hold it twice (hocuspocus#509).
 */
export function yDocFromContent(json: DocumentContent, doc = new Y.Doc()): Y.Doc {
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
 * The ProseMirror JSON a Y.Doc holds, canonicalised through the schema (adjacent text with the
 * same marks joined, attributes in the schema's order) and written without the attributes that
 * hold their default, as the editor sends it (compactJson.ts): what `documents.content` stores.
 * Canonical, so that a store of an unchanged document writes the same text and does not look like
 * an edit; compact, so that a document the limit admitted from the editor still fits it once
 * derived (200,000 words are 5.4 MB written out in full, over the 5 MB limit, and 4.2 MB compact).
 */
export function contentOfYDoc(doc: Y.Doc): DocumentContent {
  return compactJson(nodeOfYDoc(doc)) as DocumentContent;
}

/** `json` as {@link contentOfYDoc} would write it, for comparing stored content with derived content. */
export function canonicalContent(json: DocumentContent): DocumentContent {
  return compactJson(inkwellSchema().nodeFromJSON(json)) as DocumentContent;
}
