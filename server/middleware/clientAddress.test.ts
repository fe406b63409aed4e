import { describe, expect, it } from 'vitest';
import type { TrustProxy } from '../config.ts';
import { clientAddressFor, normalizeAddress } from './clientAddress.ts';

const NONE: TrustProxy = { kind: 'none' };
const ONE_HOP: TrustProxy = { kind: 'hops', hops: 1 };
const TWO_HOPS: TrustProxy = { kind: 'hops', hops: 2 };
const PROXIES: TrustProxy = { kind: 'addresses', ranges: ['10.0.0.0/8', '::1'] };

/** Headers that are garbled, hostile or just odd; none may throw or name a bucket of its own. */
const GARBAGE = [
  '',
  ' ',
  ',',
  ',,,,',
  'not-an-address',
  'unknown',
  '203.0.113.7, nonsense',
  '999.999.999.999',
  '1.2.3.4.5',
  '[::1',
  '::1]',
  '<script>',
  '\u0000',
  'é,ü,ß',
  'x'.repeat(20_000),
  Array.from({ length: 5000 }, () => 'a').join(','),
];

describe('clientAddressFor', () => {
  it('ignores X-Forwarded-For when no proxy is trusted, however it is spoofed', () => {
    const address = clientAddressFor(NONE);
    expect(address('198.51.100.1', undefined)).toBe('198.51.100.1');
    expect(address('198.51.100.1', '203.0.113.7')).toBe('198.51.100.1');
    expect(address('198.51.100.1', '203.0.113.7, 10.0.0.2')).toBe('198.51.100.1');
  });

  it('takes the address the one trusted proxy appended, not what the client sent before it', () => {
    const address = clientAddressFor(ONE_HOP);
    expect(address('10.0.0.2', '203.0.113.7')).toBe('203.0.113.7');
    // The client sent "1.1.1.1" itself; the proxy appended the address it saw.
    expect(address('10.0.0.2', '1.1.1.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(address('10.0.0.2', '1.1.1.1,203.0.113.7')).toBe('203.0.113.7');
  });

  it('skips as many hops as it is told to', () => {
    const address = clientAddressFor(TWO_HOPS);
    expect(address('10.0.0.2', '1.1.1.1, 203.0.113.7, 10.0.0.9')).toBe('203.0.113.7');
    // Fewer entries than hops: the furthest address known.
    expect(address('10.0.0.2', '203.0.113.7')).toBe('203.0.113.7');
    expect(address('10.0.0.2', undefined)).toBe('10.0.0.2');
  });

  it('walks past trusted proxy addresses to the first one that is not', () => {
    const address = clientAddressFor(PROXIES);
    expect(address('10.0.0.2', '1.1.1.1, 203.0.113.7, 10.1.2.3')).toBe('203.0.113.7');
    expect(address('::1', '203.0.113.7')).toBe('203.0.113.7');
    expect(address('::ffff:10.0.0.2', '203.0.113.7')).toBe('203.0.113.7');
    // A peer that is no trusted proxy may say what it likes: its header is not read.
    expect(address('198.51.100.1', '203.0.113.7')).toBe('198.51.100.1');
    // Every entry a trusted proxy: the leftmost is all there is.
    expect(address('10.0.0.2', '10.0.0.3')).toBe('10.0.0.3');
  });

  it.each([ONE_HOP, TWO_HOPS, PROXIES])(
    'falls back to the nearest good address on a garbled header (%j)',
    (trust) => {
      const address = clientAddressFor(trust);
      for (const header of GARBAGE) {
        const found = address('10.0.0.2', header);
        expect(normalizeAddress(found), JSON.stringify(header.slice(0, 20))).toBe(found);
        expect(['10.0.0.2', '203.0.113.7']).toContain(found);
      }
    },
  );

  it('gives one spelling per client, whatever form the proxy wrote', () => {
    const address = clientAddressFor(ONE_HOP);
    expect(address('10.0.0.2', ' 203.0.113.7 ')).toBe('203.0.113.7');
    expect(address('10.0.0.2', '203.0.113.7:51234')).toBe('203.0.113.7');
    expect(address('10.0.0.2', '::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(address('10.0.0.2', '[2001:DB8::1]:443')).toBe('2001:db8::1');
    expect(address('10.0.0.2', '2001:DB8::1')).toBe('2001:db8::1');
  });

  it('trusts an IPv4 peer under an IPv6 range only when the range is written IPv4-mapped', () => {
    // `::/1` spans ::ffff:0:0/96 too, but whoever wrote it meant IPv6 proxies.
    const ipv6 = clientAddressFor({ kind: 'addresses', ranges: ['::/1'] });
    expect(ipv6('10.0.0.2', '203.0.113.7')).toBe('10.0.0.2');
    expect(ipv6('::2', '203.0.113.7')).toBe('203.0.113.7');
    const mapped = clientAddressFor({ kind: 'addresses', ranges: ['::ffff:10.0.0.0/104'] });
    expect(mapped('10.0.0.2', '203.0.113.7')).toBe('203.0.113.7');
  });

  it('passes over empty entries of the list, as the list syntax allows them', () => {
    const address = clientAddressFor(TWO_HOPS);
    expect(address('10.0.0.2', '1.1.1.1, 203.0.113.7, , 10.0.0.9')).toBe('203.0.113.7');
    expect(address('10.0.0.2', '203.0.113.7,')).toBe('203.0.113.7');
  });

  it('names a request whose socket has no address "unknown"', () => {
    expect(clientAddressFor(NONE)(undefined, '203.0.113.7')).toBe('unknown');
    expect(clientAddressFor(ONE_HOP)(undefined, '203.0.113.7')).toBe('unknown');
  });
});
