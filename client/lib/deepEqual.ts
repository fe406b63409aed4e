/**
 * What the browser build gives @tiptap/react in place of fast-equals (vite.config.ts), whose
 * `deepEqual` is the one thing it imports from it: useEditorState's default comparison of what a
 * selector returns, to skip re-rendering when nothing changed. fast-equals handles every kind of
 * value and weighs 2 kB gzip in the first download; Inkwell's selectors return primitives and
 * plain objects and arrays of them, compared here as fast-equals compares them. Any other object
 * equals only itself (fast-equals would compare its fields): at worst one more render.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  // NaN equals NaN and 0 equals -0, as in fast-equals (SameValueZero).
  if (a === b || (a !== a && b !== b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => deepEqual(item, b[index]))
    );
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && deepEqual(a.getTime(), b.getTime());
  }
  // Both plain objects of one prototype (fast-equals tells Object's from null's apart too).
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
