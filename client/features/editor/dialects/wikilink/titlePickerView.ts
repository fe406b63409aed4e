import type { EditorView } from '@tiptap/pm/view';
import { isWellFormedWikilink } from '../../../../../common/editor/dialects/wikilink/wikilinkSyntax.ts';
import { titleKey } from '../../../../../common/editor/dialects/wikilink/wikilinkTarget.ts';
import { listDocuments } from '../../../documents/documentsApi.ts';
import { key, type Query } from './titlePicker.ts';

// The title picker's list, loaded by titlePicker.ts at the first `[[` typed.

const MAX_OPTIONS = 8;

/** The titles that fit `text`, those starting with it first; every title a link can name. */
export function matchingTitles(titles: readonly string[], text: string): string[] {
  const wanted = titleKey(text);
  const seen = new Set<string>();
  const starts: string[] = [];
  const contains: string[] = [];
  for (const title of titles) {
    const folded = titleKey(title);
    if (folded === '' || seen.has(folded) || !folded.includes(wanted)) continue;
    if (!isWellFormedWikilink({ target: title.trim(), fragment: '', alias: null, embed: false })) {
      continue;
    }
    seen.add(folded);
    (folded.startsWith(wanted) ? starts : contains).push(title.trim());
  }
  return [...starts, ...contains].slice(0, MAX_OPTIONS);
}

/** The picker's list, drawn below the cursor while a `[[` is being typed. */
export class PickerView {
  private readonly list: HTMLUListElement;
  private options: string[] = [];
  private selected = 0;
  private titles: string[] | null = null;
  private loading = false;

  constructor(private readonly view: EditorView) {
    this.list = document.createElement('ul');
    this.list.className = 'ink-wikilink-picker';
    this.list.setAttribute('role', 'listbox');
    this.list.setAttribute('aria-label', 'Link to a document');
    this.list.hidden = true;
    this.list.addEventListener('mousedown', (event) => {
      const option = (event.target as Element).closest<HTMLElement>('[data-index]');
      if (!option) return;
      event.preventDefault();
      this.choose(Number(option.dataset.index));
    });
    document.body.append(this.list);
  }

  get open(): boolean {
    return !this.list.hidden && this.options.length > 0;
  }

  update(): void {
    const query = key.getState(this.view.state)?.query ?? null;
    if (!query) {
      this.list.hidden = true;
      return;
    }
    if (this.titles === null) {
      this.load();
      return;
    }
    const options = matchingTitles(this.titles, query.text);
    // A title nobody has yet can be linked to as well (it shows as unresolved).
    const typed = query.text.trim();
    if (typed && !options.some((title) => titleKey(title) === titleKey(typed))) {
      options.push(typed);
    }
    if (options.join('\n') !== this.options.join('\n')) this.selected = 0;
    this.options = options;
    this.render(query);
  }

  move(by: number): void {
    this.selected = (this.selected + by + this.options.length) % this.options.length;
    const query = key.getState(this.view.state)?.query;
    if (query) this.render(query);
  }

  choose(index = this.selected): void {
    const query = key.getState(this.view.state)?.query;
    const title = this.options[index];
    const type = this.view.state.schema.nodes.wikilink;
    if (!query || title === undefined || !type) return;
    const { tr, doc } = this.view.state;
    // A `]]` typed ahead of time goes with the `[[`.
    const after = doc.textBetween(query.to, Math.min(query.to + 2, doc.content.size), '\n', '\n');
    const to = after === ']]' ? query.to + 2 : query.to;
    this.view.dispatch(tr.replaceWith(query.from, to, type.create({ target: title })));
    this.view.focus();
  }

  destroy(): void {
    this.list.remove();
  }

  private load(): void {
    if (this.loading) return;
    this.loading = true;
    listDocuments().then(
      (documents) => {
        this.titles = documents.map((document) => document.title);
        if (!this.view.isDestroyed) this.update();
      },
      () => {
        // Offline: no titles to offer; `]]` still makes the link.
        this.titles = [];
      },
    );
  }

  private render(query: Query): void {
    this.list.replaceChildren(
      ...this.options.map((title, index) => {
        const item = document.createElement('li');
        item.setAttribute('role', 'option');
        item.setAttribute('aria-selected', String(index === this.selected));
        item.dataset.index = String(index);
        item.textContent = title;
        return item;
      }),
    );
    this.list.hidden = this.options.length === 0;
    const coords = this.view.coordsAtPos(query.from);
    const left = Math.min(coords.left, window.innerWidth - 280);
    Object.assign(this.list.style, {
      left: `${Math.max(8, left)}px`,
      top: `${coords.bottom + 6}px`,
    });
  }
}
