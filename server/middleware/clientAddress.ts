import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyAddr from 'proxy-addr';
import type { TrustProxy } from '../config.ts';

/** What a client address is called when the socket has none (it closed before we asked). */
const UNKNOWN = 'unknown';

/** Works out who a request comes from: `peer` is the socket's address, then the header's value. */
export type ClientAddress = (peer: string | undefined, forwardedFor: string | undefined) => string;

/**
 * The one way Inkwell tells who sent a request (sign-in and sign-up throttles key on it). Without
 * `TRUST_PROXY` it is the socket's peer and `X-Forwarded-For` is ignored, since anyone can send
 * it. Behind trusted proxies, proxy-addr walks the header from the right, skipping the proxies,
 * and takes the first address no trusted proxy could have written: everything left of it came
 * from the client and may be made up. An entry that is not an IP address stops the walk at the
 * last address known good, so a garbled header can never name a bucket of its own.
 */
export function clientAddressFor(trust: TrustProxy): ClientAddress {
  if (trust.kind === 'none') return (peer) => normalizeAddress(peer) ?? UNKNOWN;
  const trusted =
    trust.kind === 'hops'
      ? (_address: string, hop: number) => hop < trust.hops
      : proxyAddr.compile([...trust.ranges]);
  // An entry that is no address is never a proxy to look past; the walk ends at it.
  const isTrusted = (entry: string, hop: number) => {
    const address = normalizeAddress(entry);
    return address !== null && trusted(address, hop);
  };
  return (peer, forwardedFor) => {
    let client = UNKNOWN;
    for (const entry of proxyAddr.all(requestOf(peer, forwardedFor), isTrusted)) {
      const address = normalizeAddress(entry);
      if (!address) break;
      client = address;
    }
    return client;
  };
}

/** The two fields of a request that proxy-addr reads. */
function requestOf(peer: string | undefined, forwardedFor: string | undefined): IncomingMessage {
  const request = { socket: { remoteAddress: peer }, headers: { 'x-forwarded-for': forwardedFor } };
  return request as unknown as IncomingMessage;
}

/** The client address of a Node request, by `resolve`. */
export function clientAddressOfRequest(resolve: ClientAddress, req: IncomingMessage): string {
  // Node joins repeated X-Forwarded-For headers with commas; the type still allows a list.
  const header = req.headers['x-forwarded-for'];
  return resolve(req.socket.remoteAddress, Array.isArray(header) ? header.join(',') : header);
}

/**
 * `raw` as a plain IP address, or null: surrounding spaces, `[…]` around IPv6, a port after
 * IPv4 or bracketed IPv6 (some proxies add one) and the IPv4-mapped IPv6 form are undone, and
 * IPv6 is lower-cased, so one client has one spelling.
 */
export function normalizeAddress(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  let value = raw.trim();
  // Longer than any IPv6 address with a zone and a port: not an address, and not worth parsing.
  if (value.length === 0 || value.length > 64) return null;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(value)) value = value.slice(0, value.indexOf(':'));
  const family = isIP(value);
  if (family === 4) return value;
  if (family !== 6) return null;
  const lower = value.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  return mapped && isIP(mapped[1]!) === 4 ? mapped[1]! : lower;
}
