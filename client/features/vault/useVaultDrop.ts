import { useEffect } from 'react';
import { vaultOfDrop, type VaultInput } from './vaultInput.ts';

/**
 * A folder or a .zip dropped anywhere on the app is imported as a vault. Listens in the capture
 * phase and stops the drop there, so that neither the editor nor the single-file import
 * (app/useMarkdownDrop.ts) also acts on it; any other drop passes by untouched.
 */
export function useVaultDrop(onImport: (input: VaultInput) => void): void {
  useEffect(() => {
    const onDrop = (event: DragEvent) => {
      const vault = vaultOfDrop(event.dataTransfer);
      if (!vault) return;
      event.preventDefault();
      event.stopPropagation();
      onImport(vault);
    };
    window.addEventListener('drop', onDrop, true);
    return () => window.removeEventListener('drop', onDrop, true);
  }, [onImport]);
}
