/** A value that changes over time, read without React state. */
export interface Observable<T> {
  /** The current value. */
  get(): T;
  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (value: T) => void): () => void;
}

/** An observable the owner can set. */
export interface WritableObservable<T> extends Observable<T> {
  /** Sets the value and tells the listeners, if it changed. */
  set(value: T): void;
}

/**
 * Creates an observable value. While the editor has focus, every React commit walks the whole
 * document DOM to save the selection (facebook/react#9992), so small, frequent displays such as
 * the save state and counts write to the DOM from a subscription instead of re-rendering.
 */
export function createObservable<T>(initial: T): WritableObservable<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of listeners) listener(next);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
