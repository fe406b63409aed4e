import { describe, expect, it } from 'vitest';
import { collabStatus, type CollabState } from './collabStatus.ts';

const state = (fields: Partial<CollabState>): CollabState => ({
  connected: true,
  synced: true,
  unsynced: 0,
  keptLocally: true,
  refused: null,
  ...fields,
});

describe('collabStatus', () => {
  it('says Saved only when connected, synced and every update acknowledged', () => {
    expect(collabStatus(state({}))).toEqual({ kind: 'saved' });
    expect(collabStatus(state({ unsynced: 1 }))).toEqual({ kind: 'saving' });
    expect(collabStatus(state({ synced: false }))).toEqual({ kind: 'saving' });
  });

  it('says offline, kept on this device, for edits waiting without a socket', () => {
    expect(collabStatus(state({ connected: false, unsynced: 2 }))).toEqual({
      kind: 'offline',
      kept: true,
    });
    expect(collabStatus(state({ connected: false, unsynced: 2, keptLocally: false }))).toEqual({
      kind: 'offline',
      kept: false,
    });
  });

  it('says reconnecting when the socket is down with nothing waiting', () => {
    expect(collabStatus(state({ connected: false }))).toEqual({ kind: 'reconnecting' });
  });

  it('says read-only until connected when the server was never reached since the page opened', () => {
    expect(collabStatus(state({ connected: false, synced: false, unreachable: true }))).toEqual({
      kind: 'waiting',
    });
    // The first attempt under way is not yet a reason to alarm anyone.
    expect(collabStatus(state({ connected: false, synced: false }))).toEqual({
      kind: 'reconnecting',
    });
    // Once synced, the editor edits offline and keeps its edits on this device.
    expect(collabStatus(state({ connected: false, unsynced: 1, unreachable: true }))).toEqual({
      kind: 'offline',
      kept: true,
    });
  });

  it('reports a refusal over everything else', () => {
    expect(collabStatus(state({ refused: 'no access.', unsynced: 3 }))).toEqual({
      kind: 'failed',
      message: 'no access.',
    });
  });
});
