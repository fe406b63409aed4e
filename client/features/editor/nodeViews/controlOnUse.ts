/**
 * Form controls that exist only while they are used. A node view that drew a `<select>` or an
 * `<input>` for every block would put hundreds of them in a long document, outside any form, and
 * Chrome's autofill looks at every such control in the page whenever one is added or changed: it
 * lays out each part of the document that holds one, skipped parts (`content-visibility`) included.
 * That cost seconds for a thousand code blocks, and 50-90 ms for two dozen callouts each time the
 * history panel's "Compare with" changed. A node view draws a button instead, and the button is
 * swapped for the real control when it is clicked, and back when the control is left
 * (docs/ARCHITECTURE.md "Form controls").
 */

/** One choice of {@link selectOnUse}. */
export interface Choice {
  value: string;
  label: string;
}

/** Puts `control` where `button` is, focused; `close` puts the button back (once). */
function swapIn(button: HTMLElement, control: HTMLElement) {
  let open = true;
  button.replaceWith(control);
  control.focus();
  return () => {
    if (!open) return;
    open = false;
    control.replaceWith(button);
  };
}

/**
 * Swaps `button` for a `<select>` of `choices` showing `value`, and opens it. A choice calls
 * `choose`; leaving it or Escape puts the button back (`onEscape` then, to give the focus back).
 */
export function selectOnUse(
  button: HTMLElement,
  options: {
    className: string;
    label: string;
    choices: readonly Choice[];
    value: string;
    choose: (value: string) => void;
    onEscape: () => void;
  },
): void {
  const select = document.createElement('select');
  select.className = options.className;
  select.setAttribute('aria-label', options.label);
  select.append(...options.choices.map((choice) => new Option(choice.label, choice.value)));
  select.value = options.value;
  const close = swapIn(button, select);
  select.addEventListener('change', () => {
    close();
    options.choose(select.value);
  });
  select.addEventListener('blur', close);
  select.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    close();
    options.onEscape();
  });
  try {
    select.showPicker();
  } catch {
    // Without showPicker (older Safari) the focused select opens on the next click or key.
  }
}

/**
 * Swaps `button` for a text field holding `value`, its text selected. Enter or leaving it calls
 * `commit` with the text when it changed; Escape drops the change. Either puts the button back
 * (`onDone` then, to give the focus back after a key).
 */
export function inputOnUse(
  button: HTMLElement,
  options: {
    className: string;
    label: string;
    value: string;
    placeholder: string;
    commit: (value: string) => void;
    onDone: () => void;
  },
): void {
  const input = document.createElement('input');
  input.className = options.className;
  input.setAttribute('aria-label', options.label);
  input.value = options.value;
  input.placeholder = options.placeholder;
  const close = swapIn(button, input);
  input.select();
  let done = false;
  const finish = (keep: boolean, byKey: boolean) => {
    if (done) return;
    done = true;
    close();
    if (keep && input.value !== options.value) options.commit(input.value);
    if (byKey) options.onDone();
  };
  input.addEventListener('blur', () => finish(true, false));
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== 'Escape') return;
    event.preventDefault();
    finish(event.key === 'Enter', true);
  });
}
