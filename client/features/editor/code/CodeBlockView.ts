import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { EditorView, NodeView, ViewMutationRecord } from '@tiptap/pm/view';
import { languageOf } from '../../../../common/editor/nodes/CodeBlock.ts';
import { selectOnUse } from '../nodeViews/controlOnUse.ts';
import { CODE_LANGUAGES, resolveCodeLanguage, withLanguage } from './languages.ts';

const PLAIN = '';

/** The picker's value and label for an info string: a grammar, the raw word, or plain text. */
function choiceFor(info: string | null): { value: string; label: string } {
  const language = resolveCodeLanguage(info);
  if (language) return { value: language.name, label: language.label };
  const word = languageOf(info);
  if (!word || word === 'text' || word === 'plaintext' || word === 'txt') {
    return { value: PLAIN, label: 'Plain text' };
  }
  return { value: word, label: word };
}

/**
 * A code block with a language picker above its text. The picker is a button until it is used
 * (nodeViews/controlOnUse.ts): a `<select>` per block cost seconds in a long document.
 */
export class CodeBlockView implements NodeView {
  readonly dom: HTMLElement;
  readonly contentDOM: HTMLElement;
  private readonly toolbar: HTMLElement;
  private readonly button: HTMLButtonElement;
  private node: ProseMirrorNode;

  constructor(
    node: ProseMirrorNode,
    private readonly view: EditorView,
    private readonly getPos: () => number | undefined,
  ) {
    this.node = node;
    this.dom = document.createElement('div');
    this.dom.className = 'ink-code-block';

    this.toolbar = document.createElement('div');
    this.toolbar.className = 'ink-code-block__toolbar';
    this.toolbar.contentEditable = 'false';

    this.button = document.createElement('button');
    this.button.type = 'button';
    this.button.className = 'ink-code-block__language';
    this.button.setAttribute('aria-haspopup', 'listbox');
    this.button.addEventListener('click', () => this.openPicker());
    this.toolbar.append(this.button);

    const pre = document.createElement('pre');
    this.contentDOM = document.createElement('code');
    pre.append(this.contentDOM);
    this.dom.append(this.toolbar, pre);
    this.render();
  }

  private render(): void {
    const { value, label } = choiceFor(this.node.attrs.language as string | null);
    this.contentDOM.className = value ? `language-${value}` : '';
    this.button.textContent = label;
    this.button.setAttribute('aria-label', `Code language: ${label}`);
  }

  /** Swaps the button for a real `<select>` and opens it. */
  private openPicker(): void {
    const { value, label } = choiceFor(this.node.attrs.language as string | null);
    const choices = [{ value: PLAIN, label: 'Plain text' }];
    if (value && !CODE_LANGUAGES.some((language) => language.name === value)) {
      choices.push({ value, label });
    }
    for (const language of CODE_LANGUAGES) {
      choices.push({ value: language.name, label: language.label });
    }
    selectOnUse(this.button, {
      className: 'ink-code-block__language',
      label: 'Code language',
      choices,
      value,
      choose: (name) => this.choose(name),
      onEscape: () => this.view.focus(),
    });
  }

  private choose(name: string): void {
    const pos = this.getPos();
    if (pos === undefined) return;
    const language = withLanguage(this.node.attrs.language as string | null, name);
    this.view.dispatch(
      this.view.state.tr.setNodeMarkup(pos, undefined, { ...this.node.attrs, language }),
    );
    this.view.focus();
  }

  update(node: ProseMirrorNode): boolean {
    if (node.type !== this.node.type) return false;
    const changed = node.attrs.language !== this.node.attrs.language;
    this.node = node;
    if (changed) this.render();
    return true;
  }

  /** The picker is ours: ProseMirror must neither handle its events nor re-read its DOM. */
  stopEvent(event: Event): boolean {
    return this.toolbar.contains(event.target as Node);
  }

  ignoreMutation(mutation: ViewMutationRecord): boolean {
    if (mutation.type === 'selection') return false;
    return this.toolbar.contains(mutation.target);
  }
}
