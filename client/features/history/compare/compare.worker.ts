import { compareSides, type CompareRequest } from './sendableComparison.ts';

/** The worker's side: the DOM library types `self` as a window, whose postMessage differs. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<CompareRequest>) => void) | null;
  postMessage(message: unknown): void;
};

// A comparison of two versions of a long document takes a few hundred milliseconds, and reading
// them as much again: here, the page keeps taking keystrokes meanwhile (docs/PRODUCT.md "Version
// history").
scope.onmessage = ({ data }) => {
  scope.postMessage(compareSides(data));
};
