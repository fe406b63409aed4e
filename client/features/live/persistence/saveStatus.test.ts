import { describe, expect, it } from 'vitest';
import { isSaveProblem, saveStatusLabel, sameStatus, worstStatus } from './saveStatus.ts';

describe('saveStatusLabel', () => {
  it('says where the document stands in the words of docs/PRODUCT.md "Keeping work safe"', () => {
    expect(saveStatusLabel({ kind: 'saved' })).toBe('Saved');
    expect(saveStatusLabel({ kind: 'saving' })).toBe('Saving…');
    expect(saveStatusLabel({ kind: 'offline', kept: true })).toBe('Offline, kept on this device');
    expect(saveStatusLabel({ kind: 'retrying' })).toBe("Couldn't save, retrying");
    expect(saveStatusLabel({ kind: 'reconnecting' })).toBe('Reconnecting…');
    expect(saveStatusLabel({ kind: 'failed', message: 'Too large.' })).toBe(
      "Couldn't save: Too large.",
    );
  });

  it('does not claim the edits are kept when the device storage failed', () => {
    const status = { kind: 'offline', kept: false } as const;
    expect(saveStatusLabel(status)).not.toMatch(/kept/);
    expect(isSaveProblem(status)).toBe(true);
    expect(isSaveProblem({ kind: 'offline', kept: true })).toBe(false);
  });

  it('treats two failures with different messages as different', () => {
    expect(sameStatus({ kind: 'failed', message: 'a' }, { kind: 'failed', message: 'b' })).toBe(
      false,
    );
    expect(sameStatus({ kind: 'saved' }, { kind: 'saved' })).toBe(true);
  });
});

describe('worstStatus', () => {
  it('shows Saved only when content and title are both saved', () => {
    expect(worstStatus({ kind: 'saved' }, { kind: 'saved' })).toEqual({ kind: 'saved' });
    expect(worstStatus({ kind: 'saved' }, { kind: 'saving' })).toEqual({ kind: 'saving' });
    expect(worstStatus({ kind: 'offline', kept: true }, { kind: 'offline', kept: false })).toEqual({
      kind: 'offline',
      kept: false,
    });
    expect(worstStatus({ kind: 'failed', message: 'x' }, { kind: 'reconnecting' }).kind).toBe(
      'failed',
    );
  });
});
