import { describe, expect, it } from 'vitest';
import { caretUserOf } from './caretUser.ts';

describe('caretUserOf', () => {
  it('names the caret by the account name, never its e-mail, and keeps one colour per account', () => {
    const ann = { id: 'a1', name: 'Ann', email: 'ann@example.com' };
    expect(caretUserOf(ann).name).toBe('Ann');
    expect(caretUserOf({ ...ann, name: null }).name).toBe('Someone');
    expect(caretUserOf({ ...ann, name: ' ' }).name).toBe('Someone');
    expect(caretUserOf(ann).color).toBe(caretUserOf({ ...ann, name: 'Other' }).color);
    expect(caretUserOf(ann).color).toMatch(/^#[0-9a-f]{6}$/);
  });
});
