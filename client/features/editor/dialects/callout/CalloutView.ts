import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import type { EditorView, NodeView } from '@tiptap/pm/view';
import {
  CALLOUT_FAMILIES,
  GITHUB_ALERT_TYPES,
  calloutFamily,
  type CalloutFamily,
} from '../../../../../common/editor/dialects/callout/calloutTypes.ts';
import type { CalloutAttrs } from '../../../../../common/editor/dialects/callout/Callout.ts';
import { inputOnUse, selectOnUse } from '../../nodeViews/controlOnUse.ts';
import './callout.css';

/** A text glyph per family (U+FE0E asks for the text form, not an emoji). */
const ICONS: Record<CalloutFamily, string> = {
  note: '✎\uFE0E',
  abstract: '≡',
  info: 'ℹ\uFE0E',
  todo: '☑\uFE0E',
  tip: '✦',
  success: '✓',
  question: '?',
  warning: '⚠\uFE0E',
  failure: '✗',
  danger: 'ϟ',
  bug: '✱',
  example: '☰',
  quote: '❝',
};

/** The types the menu offers: Obsidian's families by their first name, then GitHub's alerts. */
const MENU_TYPES: readonly string[] = [
  ...Object.values(CALLOUT_FAMILIES).map((names) => names[0]),
  ...GITHUB_ALERT_TYPES,
];

const capitalise = (type: string) => type.charAt(0).toUpperCase() + type.slice(1).toLowerCase();

/**
 * A callout: a header with its icon, a menu of types, its title and (when foldable) a fold
 * button, above its blocks. Folding changes the document's `-`/`+` marker, so it is an edit.
 * The type menu and the title are buttons until used, when they become a `<select>` and a text
 * field (nodeViews/controlOnUse.ts): a long document holds many callouts.
 */
export class CalloutView implements NodeView {
  readonly dom: HTMLElement;
  readonly contentDOM: HTMLElement;
  private readonly header: HTMLElement;
  private readonly icon: HTMLElement;
  private readonly type: HTMLButtonElement;
  private readonly title: HTMLButtonElement;
  private readonly fold: HTMLButtonElement;
  private node: ProseMirrorNode;

  constructor(
    node: ProseMirrorNode,
    private readonly view: EditorView,
    private readonly getPos: () => number | undefined,
  ) {
    this.node = node;
    this.dom = document.createElement('div');
    this.dom.className = 'ink-callout';
    this.header = document.createElement('div');
    this.header.className = 'ink-callout__header';
    this.header.contentEditable = 'false';
    this.fold = document.createElement('button');
    this.fold.type = 'button';
    this.fold.className = 'ink-callout__fold';
    this.fold.textContent = '▾';
    this.fold.addEventListener('click', () => {
      this.set({ fold: this.attrs.fold === '-' ? '+' : '-' });
    });
    this.icon = document.createElement('span');
    this.icon.className = 'ink-callout__icon';
    this.icon.setAttribute('aria-hidden', 'true');
    this.type = document.createElement('button');
    this.type.type = 'button';
    this.type.className = 'ink-callout__type';
    this.type.setAttribute('aria-haspopup', 'listbox');
    this.type.addEventListener('click', () => this.openTypes());
    this.title = document.createElement('button');
    this.title.type = 'button';
    this.title.className = 'ink-callout__title';
    this.title.addEventListener('click', () => this.editTitle());
    this.header.append(this.fold, this.icon, this.type, this.title);
    this.contentDOM = document.createElement('div');
    this.contentDOM.className = 'ink-callout__body';
    this.dom.append(this.header, this.contentDOM);
    this.render();
  }

  private get attrs(): CalloutAttrs {
    return this.node.attrs as CalloutAttrs;
  }

  private render(): void {
    const { type, fold, title } = this.attrs;
    const family = calloutFamily(type);
    this.dom.setAttribute('data-callout', type);
    this.dom.setAttribute('data-family', family);
    this.dom.setAttribute('data-fold', fold);
    this.icon.textContent = ICONS[family];
    this.type.textContent = type;
    this.type.setAttribute('aria-label', `Callout type: ${type}`);
    // Empty, the title shows what a reader sees instead: the type, capitalised.
    this.title.textContent = title || capitalise(type);
    this.title.classList.toggle('ink-callout__title--empty', !title);
    this.title.setAttribute('aria-label', `Callout title: ${title || 'none'}`);
    this.fold.hidden = fold === '';
    this.fold.setAttribute('aria-expanded', String(fold !== '-'));
    this.fold.setAttribute('aria-label', fold === '-' ? 'Expand callout' : 'Collapse callout');
  }

  /** The type menu, as a `<select>` until a type is chosen or it is left. */
  private openTypes(): void {
    const { type } = this.attrs;
    const types = MENU_TYPES.includes(type) ? MENU_TYPES : [type, ...MENU_TYPES];
    selectOnUse(this.type, {
      className: 'ink-callout__type',
      label: 'Callout type',
      choices: types.map((name) => ({ value: name, label: name })),
      value: type,
      choose: (chosen) => this.set({ type: chosen }),
      onEscape: () => this.view.focus(),
    });
  }

  /** The title, as a text field until Enter, Escape or leaving it. */
  private editTitle(): void {
    const { type, title } = this.attrs;
    inputOnUse(this.title, {
      className: 'ink-callout__title',
      label: 'Callout title',
      value: title,
      placeholder: capitalise(type),
      commit: (value) => this.set({ title: value }),
      onDone: () => this.view.focus(),
    });
  }

  private set(change: Partial<CalloutAttrs>): void {
    const pos = this.getPos();
    if (pos === undefined) return;
    this.view.dispatch(
      this.view.state.tr.setNodeMarkup(pos, undefined, { ...this.node.attrs, ...change }),
    );
  }

  update(node: ProseMirrorNode): boolean {
    if (node.type !== this.node.type) return false;
    this.node = node;
    this.render();
    return true;
  }

  /** The header's controls handle their own events; the body is edited as usual. */
  stopEvent(event: Event): boolean {
    return event.target instanceof Node && this.header.contains(event.target);
  }

  ignoreMutation(mutation: { target: Node; type: string }): boolean {
    if (mutation.type === 'selection') return false;
    return this.header.contains(mutation.target) || mutation.target === this.dom;
  }
}
