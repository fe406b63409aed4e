import { useCallback, useRef, useState } from 'react';
import { inkwellSchema } from '../../../common/editor/extensions.ts';
import { downloadBlob } from '../../lib/download.ts';
import { randomUuid } from '../../lib/randomUuid.ts';
import { useToast } from '../../components/toastContext.ts';
import { useDocumentList } from '../documents/documentListContext.ts';
import { loadMarkdownCodec } from '../editor/markdown/codec.ts';
import { exportVault } from './exportVault.ts';
import { importVault, reasonOf, type ImportSummary, type VaultFile } from './importVault.ts';
import { listVault, sendVaultBatch, vaultMarkdown } from './vaultApi.ts';

/** A vault import or export under way. */
export interface VaultProgressState {
  /** What is happening, e.g. "Importing notes…". */
  label: string;
  /** Notes handled so far. */
  done: number;
  /** Notes in all; 0 while they are still being counted. */
  total: number;
}

/** Yields to the browser: it paints the progress and handles input before the next note. */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

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
    async (collect: () => Promise<VaultFile[]>) => {
      if (running.current) return;
      running.current = true;
      setProgress({ label: 'Reading the vault…', done: 0, total: 0 });
      try {
        const [files, codec] = await Promise.all([collect(), loadMarkdownCodec()]);
        const schema = inkwellSchema();
        const result = await importVault(files, {
          parse: (bytes) =>
            JSON.stringify(codec.parseMarkdown(codec.decodeMarkdownFile(bytes), schema).toJSON()),
          send: sendVaultBatch,
          newId: randomUuid,
          yieldToBrowser,
          onProgress: (done, total) => setProgress({ label: 'Importing notes…', done, total }),
        });
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
        const result = await exportVault(folder, {
          list: listVault,
          markdown: vaultMarkdown,
          yieldToBrowser,
          onProgress: (done, total) => setProgress({ label: 'Exporting notes…', done, total }),
        });
        if (result.count === 0) toast.show('There are no documents to export.', 'info');
        else downloadBlob(result.fileName, new Blob(result.chunks, { type: 'application/zip' }));
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
