import { useEffect, type CSSProperties, type KeyboardEvent } from 'react';
import { HIGHLIGHT_COLORS, TEXT_COLORS, type Swatch } from './palettes.ts';
import { useRovingFocus } from './useRovingFocus.ts';

/** Props of {@link SwatchPalette}. */
export interface SwatchPaletteProps {
  /** `color` sets the text colour, `highlight` the highlight. */
  kind: 'color' | 'highlight';
  /** The element id the opening button points at. */
  id: string;
  /** The colour at the selection; null for the default. */
  current: string | null;
  /** Called with the chosen colour, or null to remove it. */
  onPick: (value: string | null) => void;
  /** Called on Escape. */
  onClose: () => void;
  /** Move focus into the palette when it opens (it was opened from the keyboard). */
  autoFocus: boolean;
}

const COLUMNS = 6;

const PALETTES = {
  color: { name: 'Text color', unset: 'Default', swatches: TEXT_COLORS },
  highlight: { name: 'Highlight', unset: 'No highlight', swatches: HIGHLIGHT_COLORS },
} as const;

const swatchStyle = (value: string) => ({ '--swatch': value }) as CSSProperties;

/** A grid of named colour swatches, first of them the one that removes the colour. */
export function SwatchPalette({
  kind,
  id,
  current,
  onPick,
  onClose,
  autoFocus,
}: SwatchPaletteProps) {
  const palette = PALETTES[kind];
  const {
    attach,
    focus,
    onFocus,
    onKeyDown: move,
  } = useRovingFocus<HTMLDivElement>({
    orientation: 'grid',
    columns: COLUMNS,
  });

  useEffect(() => {
    if (autoFocus) focus();
  }, [autoFocus, focus]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
      return;
    }
    move(event);
  };

  const swatch = (entry: Swatch | null) => {
    const value = entry?.value ?? null;
    return (
      <button
        key={entry?.name ?? 'none'}
        type="button"
        className={`ink-swatch ink-swatch--${kind}`}
        aria-label={entry ? `${palette.name} ${entry.name}` : palette.unset}
        aria-pressed={value === current}
        title={entry?.name ?? palette.unset}
        style={value ? swatchStyle(value) : undefined}
        onClick={() => onPick(value)}
      >
        <span className="ink-swatch__chip" aria-hidden="true">
          {entry ? 'A' : ''}
        </span>
      </button>
    );
  };

  return (
    <div
      id={id}
      ref={attach}
      role="group"
      aria-label={palette.name}
      className="ink-palette"
      style={{ gridTemplateColumns: `repeat(${COLUMNS}, max-content)` }}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
    >
      {swatch(null)}
      {palette.swatches.map(swatch)}
    </div>
  );
}
