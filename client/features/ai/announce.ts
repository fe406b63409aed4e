let region: HTMLElement | null = null;

/** Says `message` to screen readers through one polite live region, created on first use. */
export function announce(message: string): void {
  if (!region?.isConnected) {
    region = document.createElement('div');
    region.className = 'ink-visually-hidden';
    region.setAttribute('role', 'status');
    region.setAttribute('aria-live', 'polite');
    document.body.append(region);
  }
  // Cleared first, so the same sentence twice in a row is still read out.
  region.textContent = '';
  const target = region;
  setTimeout(() => (target.textContent = message), 50);
}
