import type { ChainedCommands, Editor } from '@tiptap/core';
import { BLOCK_TYPES } from './blockTypes.ts';
import { Icon, type IconName } from './icons.tsx';
import { ToolbarButton } from './ToolbarButton.tsx';
import type { Roving } from './useRovingFocus.ts';
import type { Alignment, ToolbarState } from './useToolbarState.ts';

/** The panels that open under the toolbar. */
export type PanelName = 'color' | 'highlight' | 'turnInto';

/** Props of {@link FormatToolbar}. */
export interface FormatToolbarProps {
  /** The editor the buttons act on. */
  editor: Editor;
  /** What the buttons show. */
  state: ToolbarState;
  /** The open panel, if any. */
  openPanel: PanelName | null;
  /** The id of the panel element, for `aria-controls`. */
  panelId: string;
  /** Opens or closes a panel. */
  onTogglePanel: (panel: PanelName) => void;
  /** Opens the link popover. */
  onLink: () => void;
  /** Opens the AI menu on the selection. */
  onAi: () => void;
  /** Roving focus of the toolbar, owned by the menu so Alt+F10 can focus it. */
  roving: Roving<HTMLDivElement>;
}

const MARKS = [
  { label: 'Bold', shortcut: 'Mod-b', key: 'bold', glyph: 'B' },
  { label: 'Italic', shortcut: 'Mod-i', key: 'italic', glyph: 'I' },
  { label: 'Underline', shortcut: 'Mod-u', key: 'underline', glyph: 'U' },
  { label: 'Strikethrough', shortcut: 'Mod-Shift-s', key: 'strike', glyph: 'S' },
] as const;

const ALIGN_BUTTONS: readonly {
  align: Alignment;
  label: string;
  shortcut: string;
  icon: IconName;
}[] = [
  { align: 'left', label: 'Align left', shortcut: 'Mod-Shift-l', icon: 'alignLeft' },
  { align: 'center', label: 'Align center', shortcut: 'Mod-Shift-e', icon: 'alignCenter' },
  { align: 'right', label: 'Align right', shortcut: 'Mod-Shift-r', icon: 'alignRight' },
  { align: 'justify', label: 'Justify', shortcut: 'Mod-Shift-j', icon: 'justify' },
];

const toggleMark = (chain: ChainedCommands, key: (typeof MARKS)[number]['key']) => {
  switch (key) {
    case 'bold':
      return chain.toggleBold();
    case 'italic':
      return chain.toggleItalic();
    case 'underline':
      return chain.toggleUnderline();
    case 'strike':
      return chain.toggleStrike();
  }
};

/**
 * The row of formatting buttons (WAI-ARIA toolbar: one tab stop, arrow keys between buttons).
 * Buttons leave focus where it is, so a keyboard user can apply several formats in a row.
 */
export function FormatToolbar(props: FormatToolbarProps) {
  const { editor, state, openPanel, panelId, onTogglePanel, onLink, onAi } = props;
  const { attach, onKeyDown, onFocus } = props.roving;
  const blockLabel = BLOCK_TYPES.find((type) => type.id === state.block)?.label ?? 'Mixed';
  const run = (queue: (chain: ChainedCommands) => ChainedCommands) => queue(editor.chain()).run();
  const align = (value: Alignment) =>
    // Left is the default: store nothing rather than an explicit `left`.
    run((c) => (value === 'left' ? c.unsetTextAlign() : c.setTextAlign(value)));

  return (
    <div
      ref={attach}
      role="toolbar"
      aria-label="Text formatting"
      aria-orientation="horizontal"
      className="ink-toolbar"
      onKeyDown={onKeyDown}
      onFocus={onFocus}
    >
      <ToolbarButton
        label="AI"
        hint="Ask AI or pick a command"
        shortcut="Mod-j"
        hasPopup="menu"
        wide
        onClick={onAi}
      >
        <span className="ink-tool__text">AI</span>
      </ToolbarButton>
      <span className="ink-toolbar__sep" aria-hidden="true" />
      <ToolbarButton
        label="Turn into"
        hint={blockLabel}
        hasPopup="menu"
        expanded={openPanel === 'turnInto'}
        controls={panelId}
        wide
        onClick={() => onTogglePanel('turnInto')}
      >
        <span className="ink-tool__text">{blockLabel}</span>
        <Icon name="chevron" size={14} />
      </ToolbarButton>
      <span className="ink-toolbar__sep" aria-hidden="true" />
      {MARKS.map((mark) => (
        <ToolbarButton
          key={mark.key}
          label={mark.label}
          shortcut={mark.shortcut}
          pressed={state[mark.key]}
          onClick={() => run((c) => toggleMark(c, mark.key))}
        >
          <span className={`ink-glyph ink-glyph--${mark.key}`}>{mark.glyph}</span>
        </ToolbarButton>
      ))}
      <ToolbarButton
        label="Code"
        shortcut="Mod-e"
        pressed={state.code}
        onClick={() => run((c) => c.toggleCode())}
      >
        <Icon name="code" />
      </ToolbarButton>
      <ToolbarButton label="Link" shortcut="Mod-k" pressed={state.link} onClick={onLink}>
        <Icon name="link" />
      </ToolbarButton>
      <span className="ink-toolbar__sep" aria-hidden="true" />
      <ToolbarButton
        label="Text color"
        expanded={openPanel === 'color'}
        controls={panelId}
        onClick={() => onTogglePanel('color')}
      >
        <span className="ink-glyph ink-glyph--color" style={{ color: state.color ?? undefined }}>
          A
        </span>
      </ToolbarButton>
      <ToolbarButton
        label="Highlight"
        shortcut="Mod-Shift-h"
        expanded={openPanel === 'highlight'}
        controls={panelId}
        onClick={() => onTogglePanel('highlight')}
      >
        <span
          className="ink-glyph ink-glyph--highlight"
          style={{
            background:
              state.highlight && state.highlight !== 'default' ? state.highlight : undefined,
          }}
        >
          <Icon name="highlight" size={16} />
        </span>
      </ToolbarButton>
      <span className="ink-toolbar__sep" aria-hidden="true" />
      {ALIGN_BUTTONS.map((button) => (
        <ToolbarButton
          key={button.align}
          label={button.label}
          shortcut={button.shortcut}
          pressed={state.align === button.align}
          onClick={() => align(button.align)}
        >
          <Icon name={button.icon} />
        </ToolbarButton>
      ))}
    </div>
  );
}
