import { useCallback, useRef, useState } from 'react';
import { downloadBlob } from '../../lib/download.ts';
import { useToast } from '../../components/toastContext.ts';
import { useDocumentList } from '../documents/documentListContext.ts';
import type { ImportSummary } from './importVault.ts';
import type { VaultInput } from './vaultInput.ts';

/** A vault import or export under way. */
export interface VaultProgressState {
  /** What is happening, e.g. "Importing notes…". */
  label: string;
  /** Notes handled so far. */
  done: number;
  /** Notes in all; 0 while they are still being counted. */
  total: number;
}

/** The pipelines and fflate, loaded on first use. */
const loadRun = () => import('./vaultRun.ts');

/** A sentence for a failure: the error's own when it has one. */
function reasonOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Please try again.';
}

/**
 * Vault import and export with their progress and the import's summary. One at a time: a second
 * start while one runs is ignored.
 */
export function useVault() {
  const toast = useToast();
  const list = useDocumentList();
  const [progress, setProgress] = useState<VaultProgressState | null>(null);
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  // A ref, not the state: two clicks within one render must not start two runs.
  const running = useRef(false);

  const importFiles = useCallback(
    async (input: VaultInput) => {
      if (running.current) return;
      running.current = true;
      setProgress({ label: 'Reading the vault…', done: 0, total: 0 });
      try {
        const { runImport } = await loadRun();
        const result = await runImport(input, (done, total, stage) =>
          setProgress({
            label: stage === 'images' ? 'Uploading images…' : 'Importing notes…',
            done,
            total,
          }),
        );
        setSummary(result);
        void list.refresh();
      } catch (error) {
        toast.show(`Couldn't import the vault: ${reasonOf(error)}`, 'error');
      } finally {
        running.current = false;
        setProgress(null);
      }
    },
    [list, toast],
  );

  const exportFolder = useCallback(
    async (folder: string) => {
      if (running.current) return;
      running.current = true;
      setProgress({ label: 'Exporting notes…', done: 0, total: 0 });
      try {
        const { runExport } = await loadRun();
        const result = await runExport(folder, (done, total) =>
          setProgress({ label: 'Exporting notes…', done, total }),
        );
        if (result.count === 0) toast.show('There are no documents to export.', 'info');
        else downloadBlob(result.fileName, new Blob(result.chunks, { type: 'application/zip' }));
        if (result.missingImages > 0) {
          const count = result.missingImages === 1 ? 'One image' : `${result.missingImages} images`;
          toast.show(`${count} couldn't be fetched; linked by address instead.`, 'error');
        }
      } catch (error) {
        toast.show(`Couldn't export: ${reasonOf(error)}`, 'error');
      } finally {
        running.current = false;
        setProgress(null);
      }
    },
    [toast],
  );

  return {
    /** The running import or export, or null. */
    progress,
    /** The last import's summary until it is dismissed. */
    summary,
    dismissSummary: useCallback(() => setSummary(null), []),
    importFiles,
    exportFolder,
  };
}
