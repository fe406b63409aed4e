import {
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { MenuContext } from './menuContext.ts';

const ITEM_SELECTOR = '[role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"]';

/** Props of {@link MenuButton}. */
export interface MenuButtonProps {
  /** The accessible name of the button and of the menu. */
  label: string;
  /** What the button shows (an icon); the label is used when absent. */
  icon?: ReactNode;
  /** Menu items, groups and separators. */
  children: ReactNode;
  /** Called each time the menu opens, e.g. to start loading what its items need. */
  onOpen?: () => void;
}

/**
 * A button that opens a menu, with the keyboard model of the WAI-ARIA menu button pattern:
 * arrows move, Home/End jump, Escape closes and returns focus, Tab leaves.
 */
export function MenuButton({ label, icon, children, onOpen }: MenuButtonProps) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const close = useCallback((returnFocus = true) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>(ITEM_SELECTOR)?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, close]);

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>(ITEM_SELECTOR) ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    const focusAt = (i: number) => items[(i + items.length) % items.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        focusAt(index + 1);
        break;
      case 'ArrowUp':
        focusAt(index - 1);
        break;
      case 'Home':
        focusAt(0);
        break;
      case 'End':
        focusAt(items.length - 1);
        break;
      case 'Escape':
        close();
        break;
      case 'Tab':
        close(false);
        return;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div className="ink-menu">
      <button
        ref={buttonRef}
        type="button"
        className="ink-icon-button ink-menu__button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => {
          if (!open) onOpen?.();
          setOpen(!open);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            onOpen?.();
            setOpen(true);
          }
        }}
      >
        {icon ?? label}
      </button>
      {open ? (
        <div
          ref={menuRef}
          id={menuId}
          className="ink-menu__popup"
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKeyDown}
        >
          <MenuContext.Provider value={{ close }}>{children}</MenuContext.Provider>
        </div>
      ) : null}
    </div>
  );
}

/** Props of {@link MenuItem}. */
export interface MenuItemProps {
  /** The item's accessible name and visible text. */
  label: string;
  /** Shortcut shown at the right, already formatted for the platform. */
  shortcut?: string;
  /** The same shortcut for `aria-keyshortcuts`. */
  ariaShortcut?: string;
  /** Runs in the click's user activation, so it may open a file picker or read the clipboard. */
  onSelect: () => void;
}

/** A command in a {@link MenuButton}. */
export function MenuItem({ label, shortcut, ariaShortcut, onSelect }: MenuItemProps) {
  const { close } = useContext(MenuContext);
  return (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      className="ink-menu__item"
      aria-label={label}
      aria-keyshortcuts={ariaShortcut}
      onClick={() => {
        close();
        onSelect();
      }}
    >
      <span>{label}</span>
      {shortcut ? <kbd className="ink-menu__shortcut">{shortcut}</kbd> : null}
    </button>
  );
}

/** Props of {@link MenuRadioItem}. */
export interface MenuRadioItemProps {
  /** The choice's accessible name and visible text. */
  label: string;
  /** Whether this is the current choice. */
  checked: boolean;
  /** Makes this the current choice. */
  onSelect: () => void;
}

/** One choice of a set (such as the theme), marked when current. */
export function MenuRadioItem({ label, checked, onSelect }: MenuRadioItemProps) {
  const { close } = useContext(MenuContext);
  return (
    <button
      type="button"
      role="menuitemradio"
      tabIndex={-1}
      aria-checked={checked}
      className="ink-menu__item"
      onClick={() => {
        close();
        onSelect();
      }}
    >
      <span className="ink-menu__check" aria-hidden="true">
        {checked ? '✓' : ''}
      </span>
      <span>{label}</span>
    </button>
  );
}

/** A labelled group of items, such as the theme choices. */
export function MenuGroup({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="group" aria-label={label} className="ink-menu__group">
      <div className="ink-menu__group-label" aria-hidden="true">
        {label}
      </div>
      {children}
    </div>
  );
}

/** A line between groups of items. */
export function MenuSeparator() {
  return <div role="separator" className="ink-menu__separator" />;
}
