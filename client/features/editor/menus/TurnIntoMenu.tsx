import { useEffect, type KeyboardEvent } from 'react';
import { BLOCK_TYPES, type BlockTypeId } from './blockTypes.ts';
import { Icon } from './icons.tsx';
import { formatShortcut } from './shortcuts.ts';
import { useRovingFocus } from './useRovingFocus.ts';

/** Props of {@link TurnIntoMenu}. */
export interface TurnIntoMenuProps {
  /** The element id the "Turn into" button points at. */
  id: string;
  /** The kind of block the selection is in. */
  current: BlockTypeId | null;
  /** Called with the chosen kind. */
  onPick: (id: BlockTypeId) => void;
  /** Called on Escape. */
  onClose: () => void;
  /** Move focus into the menu when it opens (it was opened from the keyboard). */
  autoFocus: boolean;
}

/** The "Turn into" menu: every block kind, the current one checked, with its shortcut. */
export function TurnIntoMenu({ id, current, onPick, onClose, autoFocus }: TurnIntoMenuProps) {
  const {
    attach,
    focus,
    onFocus,
    onKeyDown: move,
  } = useRovingFocus<HTMLDivElement>({
    orientation: 'vertical',
  });

  useEffect(() => {
    if (autoFocus) focus();
  }, [autoFocus, focus]);

  const onKeyDown = (event: KeyboardEvent) => {
    // Tab leaves a menu (WAI-ARIA menu button pattern); focus goes back to the button.
    if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
      return;
    }
    move(event);
  };

  return (
    <div
      id={id}
      ref={attach}
      role="menu"
      aria-label="Turn into"
      className="ink-turn-into"
      onKeyDown={onKeyDown}
      onFocus={onFocus}
    >
      {BLOCK_TYPES.map((type) => (
        <button
          key={type.id}
          type="button"
          role="menuitemradio"
          aria-checked={type.id === current}
          className="ink-menu-item"
          onClick={() => onPick(type.id)}
        >
          <span className="ink-menu-item__check" aria-hidden="true">
            {type.id === current && <Icon name="check" size={14} />}
          </span>
          <span className="ink-menu-item__label">{type.label}</span>
          <kbd className="ink-menu-item__keys" aria-hidden="true">
            {formatShortcut(type.shortcut)}
          </kbd>
        </button>
      ))}
    </div>
  );
}
