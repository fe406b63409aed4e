/**
 * A random version 4 UUID. `crypto.randomUUID` exists only on secure pages (https, localhost);
 * Inkwell may be served over plain http on a private network, where the same is built from
 * `crypto.getRandomValues`.
 */
export function randomUuid(): string {
  const native = crypto.randomUUID as (() => string) | undefined;
  if (native) return native.call(crypto);
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // RFC 9562: the version (4) in the high nibble of byte 6, the variant (10xx) in byte 8.
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
