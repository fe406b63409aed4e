import type { HocuspocusProvider } from '@hocuspocus/provider';
import { useEffect, useRef } from 'react';

/** Whether a stateless payload is a presence summary counting someone besides this page. */
function countsOthers(payload: string): boolean {
  try {
    const { count } = JSON.parse(payload) as { count?: unknown };
    return typeof count === 'number' && count > 1;
  } catch {
    return false;
  }
}

/**
 * Who else has the document open (docs/ARCHITECTURE.md "Live collaboration", "Presence"): the
 * carets this page holds and the server's summary. Drawn by presenceDrawing.ts, loaded the first
 * time someone else is here, so a writer alone downloads none of it. Written to the DOM, not
 * rendered: a React commit while the editor has focus walks the whole document
 * (client/lib/observable.ts), and carets move with every key someone near types.
 */
export function PresenceStrip({ provider }: { provider: HocuspocusProvider | null }) {
  const strip = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const awareness = provider?.awareness;
    if (!provider || !awareness) return;
    let lastPayload: string | undefined;
    let stop: (() => void) | undefined;
    let loading = false;
    let left = false;
    const detach = () => {
      awareness.off('change', check);
      provider.off('stateless', onStateless);
    };
    const load = () => {
      if (loading) return;
      loading = true;
      detach();
      void import('./presenceDrawing.ts').then(({ watchPresence }) => {
        if (!left && strip.current) stop = watchPresence(provider, strip.current, lastPayload);
      });
    };
    function check() {
      if (awareness!.getStates().size > 1) load();
    }
    function onStateless({ payload }: { payload: string }) {
      if (!countsOthers(payload)) return;
      lastPayload = payload;
      load();
    }
    awareness.on('change', check);
    provider.on('stateless', onStateless);
    check();
    return () => {
      left = true;
      detach();
      stop?.();
    };
  }, [provider]);
  return <div className="ink-presence" ref={strip} hidden />;
}
