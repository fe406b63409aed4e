import type { HocuspocusProvider } from '@hocuspocus/provider';
import { readPresenceSummary } from '../../../common/editor/collab/presenceSummary.ts';
import { presenceView, type PresenceView } from '../live/collab/presenceView.ts';

/*
 * What PresenceStrip.tsx loads once someone else has the document open: a writer alone never
 * downloads it.
 */

/** How often the strip is drawn again at most: the server's summary comes every 500 ms. */
const DRAW_MS = 250;
const FALLBACK_COLOR = '#6b7280';
const numberFormat = new Intl.NumberFormat();

/** Draws `view` into the strip: a face per person shown (initial, colour, name on hover), "+N". */
export function drawPresence(strip: HTMLElement, view: PresenceView): void {
  const others = view.count - 1;
  strip.hidden = others < 1;
  const label = `${numberFormat.format(view.count)} ${view.count === 1 ? 'person' : 'people'} here`;
  strip.setAttribute('aria-label', label);
  strip.title = [label, ...view.faces.map((face) => face.name)].join('\n');
  const faces = view.faces.map((face) => {
    const element = document.createElement('span');
    element.className = 'ink-presence__face';
    element.style.backgroundColor = face.color ?? FALLBACK_COLOR;
    // A text node: a name is never read as HTML.
    element.textContent = [...face.name][0]?.toUpperCase() ?? '?';
    return element;
  });
  const more = document.createElement('span');
  more.className = 'ink-presence__more';
  more.textContent = view.more > 0 ? `+${numberFormat.format(view.more)}` : '';
  strip.replaceChildren(...faces, ...(view.more > 0 ? [more] : []));
}

/**
 * Keeps `strip` drawn from the carets the page holds and the server's summary (the last one
 * seen, `lastPayload`, before this was loaded), at most every {@link DRAW_MS}; returns the stop.
 */
export function watchPresence(
  provider: HocuspocusProvider,
  strip: HTMLElement,
  lastPayload: string | undefined,
): () => void {
  const awareness = provider.awareness;
  if (!awareness) return () => undefined;
  let summary = lastPayload === undefined ? null : readPresenceSummary(lastPayload);
  let timer: number | undefined;
  const draw = () => {
    timer = undefined;
    drawPresence(strip, presenceView(awareness.clientID, awareness.getStates(), summary));
  };
  const schedule = () => {
    timer ??= window.setTimeout(draw, DRAW_MS);
  };
  const onStateless = ({ payload }: { payload: string }) => {
    const read = readPresenceSummary(payload);
    if (!read) return;
    summary = read;
    schedule();
  };
  awareness.on('change', schedule);
  provider.on('stateless', onStateless);
  draw();
  return () => {
    awareness.off('change', schedule);
    provider.off('stateless', onStateless);
    window.clearTimeout(timer);
  };
}
