import type { ReactNode } from 'react';
import { withShortcut } from './shortcuts.ts';

/** Props of {@link ToolbarButton}. */
export interface ToolbarButtonProps {
  /** The accessible name, exactly the action ("Bold", "Align left"). */
  label: string;
  /** Tiptap key name of the shortcut shown in the tooltip. */
  shortcut?: string;
  /** For toggles: whether the format is on. Leave out for plain actions. */
  pressed?: boolean;
  /** For buttons that open a panel: whether it is open. */
  expanded?: boolean;
  /** The id of the panel the button opens. */
  controls?: string;
  /** `menu` for the "Turn into" button. */
  hasPopup?: 'menu';
  /** Extra tooltip text after the label. */
  hint?: string;
  /** Runs on click, tap, Enter and Space. */
  onClick: () => void;
  /** Visible content: an icon or a glyph. */
  children: ReactNode;
  /** Wider buttons carry text as well as an icon. */
  wide?: boolean;
}

/** A toolbar button: accessible name, state and shortcut tooltip in one place. */
export function ToolbarButton(props: ToolbarButtonProps) {
  const { label, shortcut, pressed, expanded, controls, hasPopup, hint, onClick, children } = props;
  const title = withShortcut(hint ? `${label}: ${hint}` : label, shortcut);
  return (
    <button
      type="button"
      className={props.wide ? 'ink-tool ink-tool--wide' : 'ink-tool'}
      aria-label={label}
      aria-pressed={pressed}
      aria-expanded={expanded}
      aria-controls={expanded ? controls : undefined}
      aria-haspopup={hasPopup}
      title={title}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
