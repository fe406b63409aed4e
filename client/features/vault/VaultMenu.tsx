import { useRef } from 'react';
import { MenuButton, MenuItem, MenuSeparator } from '../../components/Menu.tsx';
import type { VaultInput } from './vaultInput.ts';

/** Props of {@link VaultMenu}. */
export interface VaultMenuProps {
  /** Starts an import. */
  onImport: (input: VaultInput) => void;
  /** Exports every document as a zip. */
  onExportAll: () => void;
}

function VaultIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true" fill="none">
      <path
        d="M2.5 5.5c0-.8.7-1.5 1.5-1.5h3l1.5 1.5H14c.8 0 1.5.7 1.5 1.5v6c0 .8-.7 1.5-1.5 1.5H4c-.8 0-1.5-.7-1.5-1.5z"
        stroke="currentColor"
        strokeWidth="1.4"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The sidebar's vault menu: import a folder or a .zip of Markdown, export everything as a .zip. */
export function VaultMenu({ onImport, onExportAll }: VaultMenuProps) {
  const folderInput = useRef<HTMLInputElement | null>(null);
  const zipInput = useRef<HTMLInputElement>(null);
  return (
    <>
      <MenuButton label="Vault menu" icon={<VaultIcon />}>
        <MenuItem label="Import folder…" onSelect={() => folderInput.current?.click()} />
        <MenuItem label="Import .zip…" onSelect={() => zipInput.current?.click()} />
        <MenuSeparator />
        <MenuItem label="Export all as .zip" onSelect={onExportAll} />
      </MenuButton>
      <input
        ref={(input) => {
          folderInput.current = input;
          // React has no prop for it; every current browser supports picking a folder with it.
          input?.setAttribute('webkitdirectory', '');
        }}
        className="ink-visually-hidden"
        type="file"
        tabIndex={-1}
        aria-label="Import a vault folder"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onImport({ kind: 'files', files });
        }}
      />
      <input
        ref={zipInput}
        className="ink-visually-hidden"
        type="file"
        tabIndex={-1}
        accept=".zip,application/zip"
        aria-label="Import a vault .zip"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onImport({ kind: 'zip', file });
        }}
      />
    </>
  );
}
