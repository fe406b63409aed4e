import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { AcceptMode } from './aiTarget.ts';
import { canAccept, isStreaming, shownVariant, type SuggestionState } from './suggestionState.ts';

/** What the buttons of the suggestion box do. */
export interface SuggestionActions {
  /** Stops the answer that is streaming, keeping what arrived. */
  stop: () => void;
  /** Puts the variant on show into the document. */
  accept: (mode: AcceptMode) => void;
  /** Removes the suggestion; the document stays as it was. */
  discard: () => void;
  /** Asks again, keeping the earlier answers. */
  retry: () => void;
  /** Shows the previous (-1) or next (+1) variant. */
  flip: (delta: -1 | 1) => void;
}

/** How Accept is offered: the default placement first, the other one only where it fits. */
export interface AcceptChoices {
  /** What the main Accept button does. */
  primary: AcceptMode;
  /** Whether the other placement is offered too. */
  both: boolean;
}

const ACCEPT_LABELS: Record<AcceptMode, string> = { replace: 'Replace', insert: 'Insert below' };

function button(
  label: string,
  onClick: () => void,
  className = 'ink-ai-button',
): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = className;
  element.textContent = label;
  element.addEventListener('click', onClick);
  return element;
}

/**
 * The suggestion box: a label, the answer rendered as rich text, and a toolbar (Stop while
 * streaming; then Accept, Discard, Retry and the variants). Plain DOM, because it lives in a
 * ProseMirror widget that the session updates every frame without a React render.
 */
export class SuggestionView {
  /** The element the widget decoration shows. */
  readonly dom = document.createElement('div');
  private readonly status = document.createElement('span');
  private readonly content = document.createElement('div');
  /** The blocks drawn in `content` by `setBlocks`, one element each; empty after `setContent`. */
  private blocks: readonly ProseMirrorNode[] = [];
  private readonly error = document.createElement('p');
  private readonly toolbar = document.createElement('div');
  private readonly stopButton: HTMLButtonElement;
  private readonly acceptButton: HTMLButtonElement;
  private readonly otherButton: HTMLButtonElement;
  private readonly retryButton: HTMLButtonElement;
  private readonly previous: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private readonly counter = document.createElement('span');

  constructor(
    private readonly actions: SuggestionActions,
    private readonly choices: AcceptChoices,
  ) {
    const other: AcceptMode = choices.primary === 'replace' ? 'insert' : 'replace';
    this.dom.className = 'ink-ai-suggestion';
    this.dom.contentEditable = 'false';
    this.dom.setAttribute('role', 'group');
    this.dom.setAttribute('aria-label', 'AI suggestion');
    const label = document.createElement('div');
    label.className = 'ink-ai-suggestion__label';
    label.append('AI suggestion', this.status);
    this.status.className = 'ink-ai-suggestion__status';
    this.content.className = 'ink-ai-suggestion__content';
    this.error.className = 'ink-ai-suggestion__error';
    this.error.hidden = true;
    this.toolbar.className = 'ink-ai-suggestion__toolbar';
    this.toolbar.setAttribute('role', 'toolbar');
    this.toolbar.setAttribute('aria-label', 'AI suggestion actions');
    this.stopButton = button('Stop', actions.stop);
    this.acceptButton = button(
      `Accept: ${ACCEPT_LABELS[choices.primary]}`,
      () => actions.accept(choices.primary),
      'ink-ai-button ink-ai-button--primary',
    );
    this.otherButton = button(ACCEPT_LABELS[other], () => actions.accept(other));
    this.retryButton = button('Retry', actions.retry);
    this.previous = button('‹', () => actions.flip(-1));
    this.previous.setAttribute('aria-label', 'Previous answer');
    this.next = button('›', () => actions.flip(1));
    this.next.setAttribute('aria-label', 'Next answer');
    this.counter.className = 'ink-ai-suggestion__counter';
    const discard = button('Discard', actions.discard);
    this.toolbar.append(
      this.stopButton,
      this.acceptButton,
      this.otherButton,
      discard,
      this.retryButton,
      this.previous,
      this.counter,
      this.next,
    );
    this.toolbar.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      actions.discard();
    });
    this.dom.append(label, this.content, this.error, this.toolbar);
  }

  /** Shows the rendered answer (nodes from the schema's serializer, never raw model HTML). */
  setContent(content: Node | null): void {
    this.blocks = [];
    if (content) this.content.replaceChildren(content);
    else this.content.replaceChildren();
  }

  /**
   * Shows the answer's top-level blocks, keeping the elements of those that did not change: as
   * an answer streams in only its last block grows, so a frame redraws and lays out that block
   * rather than the whole answer.
   */
  setBlocks(blocks: readonly ProseMirrorNode[], draw: (block: ProseMirrorNode) => Node): void {
    let kept = 0;
    const previous = this.blocks;
    while (kept < blocks.length && kept < previous.length && blocks[kept]!.eq(previous[kept]!)) {
      kept++;
    }
    if (previous.length === 0) this.content.replaceChildren();
    while (this.content.childNodes.length > kept) this.content.lastChild!.remove();
    for (let i = kept; i < blocks.length; i++) this.content.append(draw(blocks[i]!));
    this.blocks = blocks;
  }

  /** Brings the status, error and buttons in line with `state`. */
  update(state: SuggestionState): void {
    const variant = shownVariant(state);
    const streaming = isStreaming(state);
    const acceptable = canAccept(state);
    const focusWasHere = this.toolbar.contains(document.activeElement);
    this.dom.setAttribute('aria-busy', String(streaming));
    this.status.textContent = streaming
      ? ' · writing…'
      : variant.status === 'stopped'
        ? ' · stopped'
        : variant.truncated
          ? ' · cut short at the length limit'
          : '';
    this.error.hidden = variant.status !== 'error';
    this.error.textContent = variant.error ?? '';
    this.stopButton.hidden = !streaming;
    this.acceptButton.hidden = streaming || !acceptable;
    this.otherButton.hidden = streaming || !acceptable || !this.choices.both;
    this.retryButton.hidden = streaming;
    const several = state.variants.length > 1 && !streaming;
    this.previous.hidden = this.next.hidden = this.counter.hidden = !several;
    this.previous.disabled = state.index === 0;
    this.next.disabled = state.index === state.variants.length - 1;
    this.counter.textContent = `${state.index + 1}/${state.variants.length}`;
    // A button that hides under the keyboard's focus would drop it on the page.
    if (focusWasHere && !this.toolbar.contains(document.activeElement)) this.focus();
  }

  /** Moves focus to the first button on show (Accept once the answer is complete). */
  focus(): void {
    const first = [...this.toolbar.querySelectorAll('button')].find(
      (b) => !b.hidden && !b.disabled,
    );
    first?.focus();
  }
}
