import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentRecord, SaveResult } from '../../../../common/api/documents.ts';
import { ApiError, NetworkError } from '../../../lib/api.ts';
import type { SaveStatus } from './saveStatus.ts';
import { TitleSave } from './TitleSave.ts';

const result = (version: number): SaveResult => ({ id: 'd', version, updatedAt: 'now' });

function setup(send: (title: string, base: number) => Promise<SaveResult>) {
  const statuses: SaveStatus[] = [];
  const sent: [string, number][] = [];
  const save = new TitleSave({
    baseVersion: 3,
    saved: 'Old',
    send: (title, base) => {
      sent.push([title, base]);
      return send(title, base);
    },
    onStatus: (status) => statuses.push(status),
    delay: 10,
  });
  return { save, statuses, sent };
}

describe('TitleSave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('saves the title alone after a pause, and says Saved', async () => {
    const { save, statuses, sent } = setup(async () => result(4));
    save.edit('New');
    expect(save.hasUnsavedEdits).toBe(true);
    await vi.advanceTimersByTimeAsync(10);
    expect(sent).toEqual([['New', 3]]);
    expect(save.hasUnsavedEdits).toBe(false);
    expect(statuses.at(-1)).toEqual({ kind: 'saved' });
  });

  it('sends the title again on top of the version a 409 names (live edits move the version)', async () => {
    const current = { version: 9 } as DocumentRecord;
    const conflict = new ApiError('version_conflict', 'Changed.', 409, {}, current);
    const answers = [() => Promise.reject(conflict), () => Promise.resolve(result(10))];
    const { save, statuses, sent } = setup(() => answers.shift()!());
    save.edit('New');
    await vi.advanceTimersByTimeAsync(20);
    expect(sent).toEqual([
      ['New', 3],
      ['New', 9],
    ]);
    expect(statuses.at(-1)).toEqual({ kind: 'saved' });
  });

  it('says offline, not kept, when the server cannot be reached, and retries', async () => {
    const answers = [() => Promise.reject(new NetworkError()), () => Promise.resolve(result(4))];
    const { save, statuses, sent } = setup(() => answers.shift()!());
    save.edit('New');
    await vi.advanceTimersByTimeAsync(10);
    expect(statuses.at(-1)).toEqual({ kind: 'offline', kept: false });
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toHaveLength(2);
    expect(statuses.at(-1)).toEqual({ kind: 'saved' });
  });
});
