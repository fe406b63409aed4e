import { useCallback, useEffect, useState } from 'react';
import { foldersLeadingTo } from './folderTree.ts';

const STORAGE_KEY = 'inkwell:sidebar:open-folders';

function readStored(): Set<string> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return new Set(
      Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [],
    );
  } catch {
    // Storage blocked or a value written by hand: start with every folder closed.
    return new Set();
  }
}

function store(open: ReadonlySet<string>): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify([...open]));
  } catch {
    // Private mode or a full quota: the folders stay as they are for this visit.
  }
}

/**
 * Which sidebar folders are open, remembered on this device across visits. The folders leading
 * to `currentFolder` (the open document's) are opened, so the current document is in view.
 */
export function useOpenFolders(currentFolder: string | null) {
  const [open, setOpen] = useState<ReadonlySet<string>>(readStored);

  useEffect(() => {
    if (!currentFolder) return;
    setOpen((previous) => {
      const missing = foldersLeadingTo(currentFolder).filter((path) => !previous.has(path));
      if (missing.length === 0) return previous;
      const next = new Set([...previous, ...missing]);
      store(next);
      return next;
    });
  }, [currentFolder]);

  const toggle = useCallback((path: string) => {
    setOpen((previous) => {
      const next = new Set(previous);
      if (!next.delete(path)) next.add(path);
      store(next);
      return next;
    });
  }, []);

  return { open, toggle };
}
