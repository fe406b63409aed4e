import {
  addProperty,
  readProperties,
  removeProperty,
  setProperty,
  sourceProblem,
  type Property,
} from './properties.ts';

/** What the panel needs from its node view. */
export interface PropertiesPanelOptions {
  /** The front matter's YAML as stored. */
  yaml: string;
  /** Stores new YAML in the document (one undoable edit). */
  commit: (yaml: string) => void;
  /** Whether the source was open when the panel was last drawn. */
  showSource: boolean;
  /** Remembers whether the source is open, across redraws. */
  onShowSource: (show: boolean) => void;
  /** Removes the front matter from the document. */
  removeAll: () => void;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

function button(label: string, className: string, onClick: () => void, title?: string) {
  const el = element('button', className, label);
  el.type = 'button';
  if (title) {
    el.title = title;
    el.setAttribute('aria-label', title);
  }
  el.addEventListener('click', onClick);
  return el;
}

/** Commits an input's value when it is left or Enter is pressed, and only when it changed. */
function onCommit(input: HTMLInputElement | HTMLTextAreaElement, commit: (value: string) => void) {
  const initial = input.value;
  let committed = false;
  const done = () => {
    // Committing redraws the panel; the blur of the field it removes must not commit again.
    if (committed || input.value === initial) return;
    committed = true;
    commit(input.value);
  };
  input.addEventListener('blur', done);
  input.addEventListener('keydown', (event) => {
    const e = event as KeyboardEvent;
    if (e.key === 'Enter' && (input instanceof HTMLInputElement || e.metaKey || e.ctrlKey)) {
      e.preventDefault();
      done();
    }
  });
}

function row(property: Property, options: PropertiesPanelOptions): HTMLElement {
  const tr = element('div', 'ink-properties__row');
  tr.setAttribute('role', 'row');
  const key = element('span', 'ink-properties__key', property.key);
  key.setAttribute('role', 'rowheader');
  const cell = element('span', 'ink-properties__value');
  cell.setAttribute('role', 'cell');
  if (property.kind === 'other') {
    const pre = element('code', 'ink-properties__nested', property.value);
    pre.title = 'Edit nested values in the source';
    cell.append(pre);
  } else {
    const input = element('input', 'ink-properties__input');
    input.value = property.value;
    input.setAttribute('aria-label', property.key);
    if (property.kind === 'list') input.placeholder = 'item, item';
    onCommit(input, (value) => options.commit(setProperty(options.yaml, property.key, value)));
    cell.append(input);
  }
  const remove = button(
    '×',
    'ink-properties__remove',
    () => options.commit(removeProperty(options.yaml, property.key)),
    `Remove ${property.key}`,
  );
  tr.append(key, cell, remove);
  return tr;
}

function addRow(options: PropertiesPanelOptions): HTMLElement {
  const form = element('form', 'ink-properties__add');
  const key = element('input', 'ink-properties__input ink-properties__new-key');
  key.placeholder = 'New property';
  key.setAttribute('aria-label', 'New property name');
  const value = element('input', 'ink-properties__input');
  value.placeholder = 'Value';
  value.setAttribute('aria-label', 'New property value');
  const add = element('button', 'ink-properties__button', 'Add');
  add.type = 'submit';
  form.append(key, value, add);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = key.value.trim();
    if (name === '') {
      key.focus();
      return;
    }
    options.commit(addProperty(options.yaml, name, value.value));
  });
  return form;
}

function sourceEditor(options: PropertiesPanelOptions, error: string | null): HTMLElement {
  const wrap = element('div', 'ink-properties__source');
  const message = element('p', 'ink-properties__error', error ?? '');
  message.setAttribute('role', 'status');
  message.hidden = error === null;
  const textarea = element('textarea', 'ink-properties__textarea');
  textarea.value = options.yaml;
  textarea.spellcheck = false;
  textarea.rows = Math.min(20, Math.max(3, options.yaml.split('\n').length));
  textarea.setAttribute('aria-label', 'Properties source (YAML)');
  onCommit(textarea, (value) => {
    const problem = sourceProblem(value);
    if (problem) {
      // Kept in the box, not stored: the text is never lost, and never breaks the document.
      message.textContent = problem;
      message.hidden = false;
      return;
    }
    options.commit(value === '' || value.endsWith('\n') ? value : `${value}\n`);
  });
  wrap.append(message, textarea);
  return wrap;
}

/**
 * Draws the Properties panel into `body`: a row per key with its value to edit, a row to add one
 * and, when the YAML does not read as keys and values (or on request), its source to edit.
 */
export function renderProperties(body: HTMLElement, options: PropertiesPanelOptions): void {
  const read = readProperties(options.yaml);
  const parts: HTMLElement[] = [];
  if (read.ok) {
    const table = element('div', 'ink-properties__rows');
    table.setAttribute('role', 'table');
    table.setAttribute('aria-label', 'Properties');
    table.append(...read.properties.map((property) => row(property, options)));
    parts.push(table, addRow(options));
  }
  const showSource = !read.ok || options.showSource;
  if (showSource)
    parts.push(sourceEditor(options, read.ok ? null : `Not valid YAML: ${read.error}`));
  const actions = element('div', 'ink-properties__actions');
  if (read.ok) {
    actions.append(
      button(showSource ? 'Hide source' : 'Edit source', 'ink-properties__toggle', () =>
        options.onShowSource(!showSource),
      ),
    );
  }
  actions.append(button('Remove properties', 'ink-properties__toggle', options.removeAll));
  parts.push(actions);
  body.replaceChildren(...parts);
}
