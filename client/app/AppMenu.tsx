import {
  MenuButton,
  MenuGroup,
  MenuItem,
  MenuRadioItem,
  MenuSeparator,
} from '../components/Menu.tsx';
import { useThemePreference } from '../features/settings/useThemePreference.ts';
import { ariaShortcut, formatShortcut } from '../lib/platform.ts';
import type { ThemePreference } from '../lib/theme.ts';

/** Props of {@link AppMenu}. */
export interface AppMenuProps {
  /** Opens the Markdown file picker; absent for a viewer of someone else's document. */
  onImport?: () => void;
  /** Downloads the document as a .md file. */
  onExport: () => void;
  /** Downloads the document as a .zip with its uploaded images. */
  onExportWithImages: () => void;
  /** Copies the document as Markdown. */
  onCopy: () => void;
  /** Pastes the clipboard as Markdown; absent when the reader may not edit. */
  onPaste?: () => void;
  /** Opens the shortcut sheet. */
  onShortcuts: () => void;
  /** Moves the document to the trash; absent unless the reader owns it. */
  onTrash?: () => void;
  /** Called when the menu opens. */
  onOpen?: () => void;
}

const THEMES: { value: ThemePreference; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'system', label: 'System' },
];

function MoreIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" fill="currentColor">
      <circle cx="4" cy="10" r="1.6" />
      <circle cx="10" cy="10" r="1.6" />
      <circle cx="16" cy="10" r="1.6" />
    </svg>
  );
}

/**
 * The document menu of the top bar: Markdown in and out, the shortcut sheet, the trash and the
 * theme. What the reader's role does not allow (docs/PRODUCT.md "Sharing") is left out.
 */
export function AppMenu(props: AppMenuProps) {
  const { onImport, onExport, onExportWithImages, onCopy, onPaste, onShortcuts, onTrash, onOpen } =
    props;
  const [theme, setTheme] = useThemePreference();
  return (
    <MenuButton label="Document menu" icon={<MoreIcon />} onOpen={onOpen}>
      {onImport ? <MenuItem label="Import Markdown…" onSelect={onImport} /> : null}
      <MenuItem label="Export Markdown" onSelect={onExport} />
      <MenuItem label="Export with images" onSelect={onExportWithImages} />
      <MenuItem label="Copy as Markdown" onSelect={onCopy} />
      {onPaste ? (
        <MenuItem
          label="Paste as Markdown"
          shortcut={formatShortcut('Mod-Shift-v')}
          ariaShortcut={ariaShortcut('Mod-Shift-v')}
          onSelect={onPaste}
        />
      ) : null}
      <MenuSeparator />
      <MenuItem
        label="Keyboard shortcuts"
        shortcut={formatShortcut('Mod-/')}
        ariaShortcut={ariaShortcut('Mod-/')}
        onSelect={onShortcuts}
      />
      <MenuSeparator />
      {onTrash ? (
        <>
          <MenuItem label="Move to trash" onSelect={onTrash} />
          <MenuSeparator />
        </>
      ) : null}
      <MenuGroup label="Theme">
        {THEMES.map(({ value, label }) => (
          <MenuRadioItem
            key={value}
            label={label}
            checked={theme === value}
            onSelect={() => setTheme(value)}
          />
        ))}
      </MenuGroup>
    </MenuButton>
  );
}
