import { useCallback, useEffect, useMemo, useState } from 'react';
import type { SidebarControl } from './sidebarContext.ts';

/** Below this width the sidebar lays over the page instead of beside it. */
const NARROW_QUERY = '(max-width: 760px)';
/** Where a wide screen's choice (shown or hidden) is kept between visits. */
const STORAGE_KEY = 'inkwell.sidebar';

function readWideOpen(): boolean {
  try {
    return window.localStorage.getItem(STORAGE_KEY) !== 'hidden';
  } catch {
    return true;
  }
}

function writeWideOpen(open: boolean): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, open ? 'shown' : 'hidden');
  } catch {
    // Storage refused (private mode): the choice lasts for this visit.
  }
}

/**
 * Whether the sidebar shows: on wide screens as the writer last left it, on phones closed until
 * asked for, and closed again once a document is chosen.
 */
export function useSidebarState(): SidebarControl {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW_QUERY).matches);
  const [wideOpen, setWideOpen] = useState(readWideOpen);
  const [narrowOpen, setNarrowOpen] = useState(false);

  useEffect(() => {
    const query = window.matchMedia(NARROW_QUERY);
    const onChange = () => {
      setNarrow(query.matches);
      setNarrowOpen(false);
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  const toggle = useCallback(() => {
    if (narrow) {
      setNarrowOpen((open) => !open);
      return;
    }
    setWideOpen((open) => {
      writeWideOpen(!open);
      return !open;
    });
  }, [narrow]);

  const dismiss = useCallback(() => setNarrowOpen(false), []);

  return useMemo(
    () => ({ open: narrow ? narrowOpen : wideOpen, narrow, toggle, dismiss }),
    [narrow, narrowOpen, wideOpen, toggle, dismiss],
  );
}
