import * as Y from 'yjs';
import type { DocumentContent } from '../../common/api/documents.ts';
import { inkwellSchema } from '../../common/editor/extensions.ts';
import { InvalidDocumentError, InvalidRequestError, PayloadTooLargeError } from '../errors.ts';
import { formatBytes } from '../middleware/readJson.ts';
import { SchemaGuard } from './schemaGuard.ts';
import { canonicalContent, CONTENT_FIELD, contentOfYDoc } from './yjsContent.ts';

/** The Yjs state a create brought, checked, with the content derived from it. */
export interface CheckedCreateState {
  state: Uint8Array;
  content: DocumentContent;
}

/**
 * Checks the Yjs state a tab sends with the create of a document it made (docs/ARCHITECTURE.md
 * "Live collaboration"), as any live update is checked: the schema guard on an empty document
 * (every block is new, so every block is checked), the same growth bound as a socket's
 * (twice the document limit). Returns the state and the content derived from it, compact as
 * every derivation writes it. `content`, when the request sent it too, must be what the state
 * holds: a row whose JSON and Yjs state disagree would show one thing over REST and another live.
 */
export function checkCreateState(
  base64: string,
  options: { maxStateBytes: number; content?: DocumentContent },
): CheckedCreateState {
  const state = new Uint8Array(Buffer.from(base64, 'base64'));
  if (state.byteLength > options.maxStateBytes) {
    throw PayloadTooLargeError(
      `The document's shared state is larger than ${formatBytes(options.maxStateBytes)}.`,
    );
  }
  const empty = Y.encodeStateAsUpdate(new Y.Doc());
  const guard = new SchemaGuard(inkwellSchema(), () => empty);
  let problem: string | null;
  try {
    problem = guard.check(state).problem;
  } finally {
    guard.destroy();
  }
  if (problem) throw InvalidDocumentError(`The document's shared state is refused: ${problem}`);
  const doc = new Y.Doc();
  try {
    doc.getXmlFragment(CONTENT_FIELD);
    Y.applyUpdate(doc, state);
    const content = contentOfYDoc(doc);
    if (
      options.content !== undefined &&
      JSON.stringify(canonicalOrNull(options.content)) !== JSON.stringify(content)
    ) {
      throw InvalidRequestError('The content and the shared state hold different documents.');
    }
    return { state, content };
  } finally {
    doc.destroy();
  }
}

/** `content` canonical, or null when the schema cannot read it (then it matches no state). */
function canonicalOrNull(content: DocumentContent): DocumentContent | null {
  try {
    return canonicalContent(content);
  } catch {
    return null;
  }
}
