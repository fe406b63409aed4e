// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { inputOnUse, selectOnUse } from './controlOnUse.ts';

/** A button in a header, as a node view draws it. */
function drawnButton(): { header: HTMLElement; button: HTMLButtonElement } {
  const header = document.createElement('div');
  const button = document.createElement('button');
  header.append(button);
  document.body.append(header);
  return { header, button };
}

const key = (element: HTMLElement, name: string) =>
  element.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));

describe('selectOnUse', () => {
  it('is a select only while it is used, and gives the choice', () => {
    const { header, button } = drawnButton();
    const choose = vi.fn();
    selectOnUse(button, {
      className: 'picker',
      label: 'Language',
      choices: [
        { value: '', label: 'Plain text' },
        { value: 'ts', label: 'TypeScript' },
      ],
      value: '',
      choose,
      onEscape: () => {},
    });
    const select = header.querySelector('select')!;
    expect(header.contains(button)).toBe(false);
    expect(select.getAttribute('aria-label')).toBe('Language');
    expect(document.activeElement).toBe(select);
    select.value = 'ts';
    select.dispatchEvent(new Event('change'));
    expect(choose).toHaveBeenCalledWith('ts');
    expect(header.querySelector('select')).toBeNull();
    expect(header.contains(button)).toBe(true);
  });

  it('puts the button back on Escape or when left, choosing nothing', () => {
    for (const leave of ['Escape', 'blur']) {
      const { header, button } = drawnButton();
      const choose = vi.fn();
      const onEscape = vi.fn();
      const choices = [{ value: 'a', label: 'A' }];
      selectOnUse(button, { className: '', label: 'L', choices, value: 'a', choose, onEscape });
      const select = header.querySelector('select')!;
      if (leave === 'Escape') key(select, 'Escape');
      else select.dispatchEvent(new Event('blur'));
      expect(header.contains(button)).toBe(true);
      expect(header.querySelector('select')).toBeNull();
      expect(choose).not.toHaveBeenCalled();
      expect(onEscape).toHaveBeenCalledTimes(leave === 'Escape' ? 1 : 0);
    }
  });
});

describe('inputOnUse', () => {
  const open = (value: string) => {
    const { header, button } = drawnButton();
    const commit = vi.fn();
    const onDone = vi.fn();
    inputOnUse(button, {
      className: '',
      label: 'Title',
      value,
      placeholder: 'Note',
      commit,
      onDone,
    });
    return { header, button, commit, onDone, input: header.querySelector('input')! };
  };

  it('commits a changed text on Enter and when left, once', () => {
    const byEnter = open('Old');
    expect(byEnter.input.value).toBe('Old');
    expect(byEnter.input.placeholder).toBe('Note');
    byEnter.input.value = 'New';
    key(byEnter.input, 'Enter');
    byEnter.input.dispatchEvent(new Event('blur'));
    expect(byEnter.commit).toHaveBeenCalledTimes(1);
    expect(byEnter.commit).toHaveBeenCalledWith('New');
    expect(byEnter.onDone).toHaveBeenCalledTimes(1);
    expect(byEnter.header.contains(byEnter.button)).toBe(true);

    const byLeaving = open('Old');
    byLeaving.input.value = 'Left';
    byLeaving.input.dispatchEvent(new Event('blur'));
    expect(byLeaving.commit).toHaveBeenCalledWith('Left');
    expect(byLeaving.onDone).not.toHaveBeenCalled();
  });

  it('drops the change on Escape, and commits nothing unchanged', () => {
    const escaped = open('Old');
    escaped.input.value = 'Dropped';
    key(escaped.input, 'Escape');
    expect(escaped.commit).not.toHaveBeenCalled();
    expect(escaped.header.contains(escaped.button)).toBe(true);

    const unchanged = open('Same');
    key(unchanged.input, 'Enter');
    expect(unchanged.commit).not.toHaveBeenCalled();
  });
});
