/** Longest `returnTo` kept; a real one is a document path with a short query. */
const MAX_RETURN_TO_LENGTH = 2000;

/**
 * Where sign-in sends the browser back to: `value` as the browser would read it against
 * `publicUrl`, kept only if it stays on that origin, and then as a path only (docs/PRODUCT.md,
 * "Sign-in"). Parsing with `URL` rather than testing prefixes matters because browsers drop tabs
 * and newlines and read `\` as `/`, so `/\t/evil.example` is `//evil.example` to them; anything
 * else, or anything unparsable, is `/`.
 */
export function safeReturnTo(value: string | null | undefined, publicUrl: string): string {
  if (!value || value.length > MAX_RETURN_TO_LENGTH) return '/';
  const origin = new URL(publicUrl).origin;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return '/';
  }
  if (url.origin !== origin) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil.example` resolves to the path `//evil.example`, which a Location header would
  // turn back into another host.
  if (path.startsWith('//') || path.length > MAX_RETURN_TO_LENGTH) return '/';
  return path;
}
