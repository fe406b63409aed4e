import { describe, expect, it } from 'vitest';
import { PasteArm } from './PasteArm.ts';

describe('PasteArm', () => {
  it('is taken once while armed', () => {
    let now = 0;
    const arm = new PasteArm(() => now);
    arm.arm(1000);
    now = 500;
    expect(arm.take()).toBe(true);
    expect(arm.take()).toBe(false);
  });

  it('expires', () => {
    let now = 0;
    const arm = new PasteArm(() => now);
    arm.arm(1000);
    now = 1001;
    expect(arm.take()).toBe(false);
  });

  it('lets a later request win over an earlier one', () => {
    const arm = new PasteArm(() => 0);
    const first = arm.arm(1000);
    const second = arm.arm(1000);
    expect(arm.take(first)).toBe(false);
    expect(arm.take(second)).toBe(true);
  });
});
