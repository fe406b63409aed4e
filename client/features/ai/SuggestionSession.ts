import type { Editor } from '@tiptap/core';
import { closeHistory } from '@tiptap/pm/history';
import type { Transaction } from '@tiptap/pm/state';
import { DOMSerializer, type Node as ProseMirrorNode, type Schema } from '@tiptap/pm/model';
import type { AiGenerateRequest } from '../../../common/api/ai.ts';
import { MarkdownImportError } from '../../../common/editor/markdown/decode.ts';
import type { ApiClient } from '../../lib/api.ts';
import { depthProblem } from '../editor/depthLimit.ts';
import { stopCapturing } from '../live/collab/undoSteps.ts';
import { acceptTransaction } from './acceptSuggestion.ts';
import { AiFailure, describeAiError, generate } from './aiApi.ts';
import { announce as announceToScreenReaders } from './announce.ts';
import { defaultAcceptMode, type AcceptMode, type SuggestionTarget } from './aiTarget.ts';
import { clearSuggestion, showSuggestion, shownSuggestion } from './suggestionPlugin.ts';
import {
  canAccept,
  initialSuggestion,
  shownVariant,
  suggestionReducer,
  type SuggestionAction,
  type SuggestionState,
} from './suggestionState.ts';
import { SuggestionView } from './SuggestionView.ts';

/** What a session needs besides the editor; tests replace the network and the frame clock. */
export interface SessionOptions {
  /** The request to send (and send again on Retry). */
  request: AiGenerateRequest;
  /** Where the answer shows and goes. */
  target: SuggestionTarget;
  /** Turns the model's Markdown into a document of the editor's schema. */
  parseMarkdown: (markdown: string, schema: Schema) => ProseMirrorNode;
  /** The API client to stream through; the app's by default. */
  client?: ApiClient;
  /** Runs a callback before a paint; an animation frame at most ~30 times a second by default. */
  schedule?: (callback: () => void) => void;
  /** Tells screen readers; a live region by default. */
  announce?: (message: string) => void;
  /** Called once the suggestion is accepted or discarded. */
  onEnd?: () => void;
}

let lastId = 0;

/** Shortest time between two redraws of a streaming answer: about 30 a second. */
const REDRAW_INTERVAL_MS = 30;
let lastRedraw = 0;

/**
 * Runs `callback` in an animation frame at least `REDRAW_INTERVAL_MS` after the last: tokens
 * arrive faster than anyone reads, and in a long document each redraw costs the browser a
 * layout and its off-screen bookkeeping, so every other frame does as well as all of them.
 */
function throttledFrame(callback: () => void): void {
  requestAnimationFrame((now) => {
    if (now - lastRedraw < REDRAW_INTERVAL_MS) {
      throttledFrame(callback);
      return;
    }
    lastRedraw = now;
    callback();
  });
}

/**
 * One suggestion from request to Accept or Discard: streams the answer, re-renders it at most
 * once per frame, keeps the variants of each Retry and applies the chosen one in one transaction.
 */
export class SuggestionSession {
  /** The suggestion box shown in the editor. */
  readonly view: SuggestionView;
  private readonly id = ++lastId;
  private state: SuggestionState = initialSuggestion();
  private controller: AbortController | null = null;
  private frameRequested = false;
  private ended = false;
  private readonly serializer: DOMSerializer;

  constructor(
    private readonly editor: Editor,
    private readonly options: SessionOptions,
  ) {
    const primary = defaultAcceptMode(options.request.command, options.target);
    this.view = new SuggestionView(
      {
        stop: () => this.stop(),
        accept: (mode) => this.accept(mode),
        discard: () => this.discard(),
        retry: () => this.retry(),
        flip: (delta) => this.dispatch({ type: 'show', index: this.state.index + delta }),
      },
      // "Continue" has nothing to replace; the others may go either way once there is a range.
      { primary, both: options.target.replaceable },
    );
    this.serializer = DOMSerializer.fromSchema(editor.schema);
  }

  /** The state of the suggestion, for tests and the menu. */
  get current(): SuggestionState {
    return this.state;
  }

  /** Shows the suggestion box and starts streaming; with `failure`, shows that sentence instead. */
  start(failure?: string): void {
    const { view, state } = this.editor;
    const shown = {
      id: this.id,
      target: this.options.target,
      dom: this.view.dom,
      onEscape: () => this.discard(),
    };
    view.dispatch(showSuggestion(state.tr, shown));
    if (failure) this.dispatch({ type: 'error', message: failure });
    else void this.stream();
    this.render();
  }

  /** Stops the answer that is streaming; what arrived stays on show. */
  stop(): void {
    this.dispatch({ type: 'stop' });
    this.controller?.abort();
  }

  /** Asks again; the earlier answers stay to flip back to. */
  retry(): void {
    const before = this.state;
    this.dispatch({ type: 'retry' });
    if (this.state !== before) void this.stream();
  }

  /** Removes the suggestion and leaves the document as it was. */
  discard(): boolean {
    if (this.ended) return false;
    this.end(this.editor.state.tr);
    return true;
  }

  /**
   * Puts the answer on show into the document, as one undo step; an answer that would nest
   * too deeply (docs/limits.md) is refused whole, with the reason shown in its place.
   */
  accept(mode: AcceptMode): void {
    const shown = shownSuggestion(this.editor.state);
    if (this.ended || !canAccept(this.state) || shown?.id !== this.id) return;
    let answer: ProseMirrorNode;
    try {
      answer = this.options.parseMarkdown(shownVariant(this.state).markdown, this.editor.schema);
    } catch (error) {
      if (!(error instanceof MarkdownImportError)) throw error;
      this.dispatch({ type: 'refuse', message: error.message });
      return;
    }
    const tr = acceptTransaction(this.editor.state, answer, shown.target, mode);
    const problem = depthProblem(tr, 'This answer');
    if (problem) {
      this.dispatch({ type: 'refuse', message: problem });
      return;
    }
    // One undo step on a shared document too: not joined to the typing just before it…
    stopCapturing(this.editor);
    this.end(tr);
    // …and typing right after must start its own undo step, not join the accepted text's.
    this.editor.view.dispatch(closeHistory(this.editor.state.tr));
    stopCapturing(this.editor);
  }

  private end(tr: Transaction): void {
    this.ended = true;
    this.controller?.abort();
    if (!this.editor.isDestroyed) {
      this.editor.view.dispatch(clearSuggestion(tr, this.id));
      this.editor.view.focus();
    }
    this.options.onEnd?.();
  }

  private dispatch(action: SuggestionAction): void {
    const next = suggestionReducer(this.state, action);
    if (next === this.state || this.ended) return;
    this.state = next;
    // Buttons answer at once; only the answer's text waits for the next frame.
    if (action.type !== 'delta') this.view.update(next);
    if (action.type === 'done')
      (this.options.announce ?? announceToScreenReaders)('AI suggestion ready');
    this.requestRender();
  }

  private requestRender(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    const schedule = this.options.schedule ?? throttledFrame;
    schedule(() => {
      this.frameRequested = false;
      this.render();
    });
  }

  /** Parses the whole answer again: Markdown read in pieces can change meaning as it grows. */
  private render(): void {
    if (this.ended) return;
    const { markdown } = shownVariant(this.state);
    try {
      const doc = this.options.parseMarkdown(markdown, this.editor.schema);
      const blocks: ProseMirrorNode[] = [];
      doc.forEach((block) => blocks.push(block));
      this.view.setBlocks(blocks, (block) => this.serializer.serializeNode(block));
    } catch {
      // Half-received Markdown that the codec rejects shows as plain text until more arrives.
      const fallback = document.createDocumentFragment();
      fallback.append(markdown);
      this.view.setContent(fallback);
    }
    this.view.update(this.state);
  }

  private async stream(): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    try {
      for await (const event of generate(
        this.options.request,
        controller.signal,
        this.options.client,
      )) {
        if (event.event === 'delta') this.dispatch({ type: 'delta', text: event.data.text });
        else if (event.event === 'done') {
          this.dispatch({ type: 'done', truncated: event.data.finishReason === 'length' });
        } else {
          const { code, message, retryAfterSeconds } = event.data;
          this.dispatch({
            type: 'error',
            message: describeAiError(code, message, retryAfterSeconds),
          });
        }
      }
      // A stream that ends without `done` or `error` was cut off on the way.
      this.dispatch({ type: 'error', message: 'The AI answer broke off. Please retry.' });
    } catch (error) {
      if (controller.signal.aborted) return;
      const message = error instanceof AiFailure ? error.message : 'The AI request failed.';
      this.dispatch({ type: 'error', message });
    }
  }
}
