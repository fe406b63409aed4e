import type { Editor } from '@tiptap/core';
import { useEffect, useId, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { slashItemsFor, type SlashItem } from './slashItems.ts';

/** What the suggestion plugin calls on the open menu. */
export interface SlashMenuHandle {
  /** Handles a key pressed in the editor; true when the menu used it. */
  onKeyDown: (event: KeyboardEvent) => boolean;
}

/** Props of {@link SlashMenu}. */
export interface SlashMenuProps {
  /** The editor, whose text field points at the highlighted option for screen readers. */
  editor: Editor;
  /** What was typed after `/`. */
  query: string;
  /** Inserts the chosen item in place of `/query`. */
  command: (item: SlashItem) => void;
  /** Set by the renderer. */
  ref?: Ref<SlashMenuHandle>;
}

/**
 * The list of blocks under the cursor while `/query` is typed. Focus stays in the text: the
 * arrow keys, Enter and Escape reach the menu through the suggestion plugin, and the editor
 * carries `aria-activedescendant` for the highlighted option.
 */
export function SlashMenu({ editor, query, command, ref }: SlashMenuProps) {
  // Filtering is synchronous and cheap, so the menu filters as it renders instead of through the
  // plugin's asynchronous `items`, which would show an empty list for a frame per keystroke.
  const items = useMemo(() => slashItemsFor(query), [query]);
  const [active, setActive] = useState({ query, index: 0 });
  const index = active.query === query ? Math.min(active.index, items.length - 1) : 0;
  const listId = useId();
  const list = useRef<HTMLDivElement>(null);
  const optionId = (i: number) => `${listId}-${i}`;

  useImperativeHandle(
    ref,
    () => ({
      onKeyDown: (event) => {
        if (items.length === 0) return false;
        const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
        if (step !== 0) {
          setActive({ query, index: (index + step + items.length) % items.length });
          return true;
        }
        if (event.key === 'Enter' || event.key === 'Tab') {
          const item = items[index];
          if (item) command(item);
          return true;
        }
        return false;
      },
    }),
    [items, index, query, command],
  );

  useEffect(() => {
    const dom = editor.view.dom;
    if (items.length === 0) return;
    dom.setAttribute('aria-controls', listId);
    dom.setAttribute('aria-activedescendant', `${listId}-${index}`);
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
    return () => {
      dom.removeAttribute('aria-controls');
      dom.removeAttribute('aria-activedescendant');
    };
  }, [editor, items, index, listId]);

  if (items.length === 0) {
    return (
      <div className="ink-slash" role="status">
        <p className="ink-slash__empty">No matching blocks</p>
      </div>
    );
  }

  return (
    <div className="ink-slash">
      <div ref={list} id={listId} role="listbox" aria-label="Blocks" className="ink-slash__list">
        {items.map((item, i) => (
          <div
            key={item.id}
            id={optionId(i)}
            role="option"
            aria-selected={i === index}
            aria-labelledby={`${optionId(i)}-title`}
            aria-describedby={`${optionId(i)}-description`}
            className="ink-slash__option"
            // Keep focus, and so the typed `/query`, in the editor.
            onMouseDown={(event) => event.preventDefault()}
            onMouseMove={() => i !== index && setActive({ query, index: i })}
            onClick={() => command(item)}
          >
            <span className="ink-slash__icon" aria-hidden="true">
              {item.icon}
            </span>
            <span className="ink-slash__text">
              <span id={`${optionId(i)}-title`} className="ink-slash__title">
                {item.title}
              </span>
              <span id={`${optionId(i)}-description`} className="ink-slash__description">
                {item.description}
              </span>
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}
