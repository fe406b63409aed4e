/** Debian's chromium; browsers are never downloaded. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags for Debian's chromium here: headless, as root, and quiet on a closed network. */
export const CHROMIUM_ARGS = [
  '--headless',
  // Containers and CI run as root, where Chromium's sandbox cannot start.
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  // Chromium's own traffic (updates, sync, field trials) has no place in a test run.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
