import { useCallback, useLayoutEffect, useRef, type FocusEvent, type KeyboardEvent } from 'react';

/** How arrow keys move between the items of a roving group. */
export interface RovingOptions {
  /** Left/Right for a toolbar, Up/Down for a menu, all four for a grid. */
  orientation: 'horizontal' | 'vertical' | 'grid';
  /** Items per row; only for `grid`. */
  columns?: number;
}

/** The handlers and focus helper of a roving group. */
export interface Roving<T extends HTMLElement> {
  /** Pass as `ref` to the element that holds the items. */
  attach: (element: T | null) => void;
  /** Put on the same element: moves focus with the arrow keys, Home and End. */
  onKeyDown: (event: KeyboardEvent) => void;
  /** Put on the same element: the focused item becomes the group's tab stop. */
  onFocus: (event: FocusEvent) => void;
  /** Focuses the group's tab stop; false when the group has no items. */
  focus: () => boolean;
}

const ITEMS = 'button:not([disabled])';

function itemsOf(container: HTMLElement | null): HTMLElement[] {
  return container ? [...container.querySelectorAll<HTMLElement>(ITEMS)] : [];
}

function step(key: string, { orientation, columns = 1 }: RovingOptions): number | null {
  const horizontal = orientation !== 'vertical';
  const vertical = orientation !== 'horizontal';
  const row = orientation === 'grid' ? columns : 1;
  if (key === 'ArrowRight' && horizontal) return 1;
  if (key === 'ArrowLeft' && horizontal) return -1;
  if (key === 'ArrowDown' && vertical) return row;
  if (key === 'ArrowUp' && vertical) return -row;
  return null;
}

/**
 * Roving tabindex (WAI-ARIA toolbar, menu and grid patterns): the group is a single tab stop and
 * the arrow keys move focus between its buttons.
 */
export function useRovingFocus<T extends HTMLElement>(options: RovingOptions): Roving<T> {
  const ref = useRef<T>(null);
  const attach = useCallback((element: T | null) => {
    ref.current = element;
  }, []);
  const current = useRef<HTMLElement | null>(null);
  const { orientation, columns } = options;

  const sync = useCallback((active: HTMLElement | null) => {
    const items = itemsOf(ref.current);
    const stop =
      (active && items.includes(active) && active) ||
      (current.current && items.includes(current.current) && current.current) ||
      items[0];
    current.current = stop ?? null;
    for (const item of items) item.tabIndex = item === stop ? 0 : -1;
  }, []);

  // Items come and go with renders: keep exactly one of them tabbable after each one.
  useLayoutEffect(() => sync(null));

  const onFocus = useCallback(
    (event: FocusEvent) => {
      if (event.target instanceof HTMLElement) sync(event.target);
    },
    [sync],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent) => {
      const items = itemsOf(ref.current);
      const index = items.findIndex((item) => item === document.activeElement);
      if (index < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
      let next: number;
      if (event.key === 'Home') next = 0;
      else if (event.key === 'End') next = items.length - 1;
      else {
        const delta = step(event.key, { orientation, columns });
        if (delta === null) return;
        next = index + delta;
        if (orientation !== 'grid') next = (next + items.length) % items.length;
        else if (next < 0 || next >= items.length) return;
      }
      event.preventDefault();
      items[next]?.focus();
    },
    [orientation, columns],
  );

  const focus = useCallback(() => {
    sync(null);
    const stop = current.current;
    stop?.focus();
    return stop !== null;
  }, [sync]);

  return { attach, onKeyDown, onFocus, focus };
}
