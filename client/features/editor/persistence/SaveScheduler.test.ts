import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SaveScheduler, type SaveState } from './SaveScheduler.ts';

describe('SaveScheduler', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(save = vi.fn(() => Promise.resolve())) {
    const states: SaveState[] = [];
    const scheduler = new SaveScheduler({ save, onState: (state) => states.push(state) });
    return { scheduler, save, states };
  }

  it('saves once, a second after the last edit', async () => {
    const { scheduler, save, states } = setup();
    scheduler.markDirty();
    await vi.advanceTimersByTimeAsync(600);
    scheduler.markDirty();
    await vi.advanceTimersByTimeAsync(900);
    expect(save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(200);
    expect(save).toHaveBeenCalledTimes(1);
    expect(states).toEqual(['pending', 'saving', 'saved']);
  });

  it('saves within five seconds while typing goes on', async () => {
    const { scheduler, save } = setup();
    for (let t = 0; t < 5200; t += 200) {
      scheduler.markDirty();
      await vi.advanceTimersByTimeAsync(200);
    }
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('saves at once on flush', async () => {
    const { scheduler, save } = setup();
    scheduler.markDirty();
    await scheduler.flush();
    expect(save).toHaveBeenCalledTimes(1);
    expect(scheduler.hasUnsavedChanges).toBe(false);
    await vi.advanceTimersByTimeAsync(2000);
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('does nothing on flush when everything is saved', async () => {
    const { scheduler, save } = setup();
    await scheduler.flush();
    expect(save).not.toHaveBeenCalled();
  });

  it('retries a failed save', async () => {
    const save = vi.fn().mockRejectedValueOnce(new Error('quota')).mockResolvedValue(undefined);
    const { scheduler, states } = setup(save);
    scheduler.markDirty();
    await vi.advanceTimersByTimeAsync(1000);
    expect(states.at(-1)).toBe('error');
    await vi.advanceTimersByTimeAsync(2000);
    expect(save).toHaveBeenCalledTimes(2);
    expect(states.at(-1)).toBe('saved');
  });

  it('saves again when an edit lands during a save', async () => {
    let finish: () => void = () => undefined;
    const save = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { scheduler } = setup(save);
    scheduler.markDirty();
    await vi.advanceTimersByTimeAsync(1000);
    scheduler.markDirty();
    finish();
    await vi.advanceTimersByTimeAsync(1000);
    expect(save).toHaveBeenCalledTimes(2);
  });
});
