import type { JSONContent } from '@tiptap/core';
import { compareDocuments, type CompareSchema } from './compareDocuments.ts';
import { sendable } from './sendableComparison.ts';

/** What {@link runComparison} sends the worker. */
export interface CompareRequest {
  older: JSONContent;
  newer: JSONContent;
  schema: CompareSchema;
}

/** The worker's side: the DOM library types `self` as a window, whose postMessage differs. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<CompareRequest>) => void) | null;
  postMessage(message: unknown): void;
};

// A comparison of two versions of a long document takes a few hundred milliseconds: here, the
// page keeps taking keystrokes meanwhile (docs/PRODUCT.md "Version history").
scope.onmessage = ({ data }) => {
  scope.postMessage(sendable(compareDocuments(data.older, data.newer, { schema: data.schema })));
};
