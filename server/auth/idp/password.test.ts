import { describe, expect, it } from 'vitest';
import { hashPassword, verifyNothing, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('stores scrypt parameters, salt and hash in one self-describing string', async () => {
    const hash = await hashPassword('correct horse');
    const parts = hash.split('$');
    expect(parts.slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
    expect(Buffer.from(parts[4]!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(parts[5]!, 'base64url')).toHaveLength(32);
    expect(hash).not.toContain('correct horse');
  });

  it('salts every hash differently', async () => {
    expect(await hashPassword('same password')).not.toBe(await hashPassword('same password'));
  });

  it('accepts the right password and rejects a wrong one', async () => {
    const hash = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsE', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('treats differently composed Unicode as the same password', async () => {
    const hash = await hashPassword('caf\u00e9 au lait');
    expect(await verifyPassword('cafe\u0301 au lait', hash)).toBe(true);
  });

  it('rejects malformed or tampered hashes instead of throwing', async () => {
    const hash = await hashPassword('pw-12345');
    const parts = hash.split('$');
    const withCost = (n: string) => ['scrypt', n, ...parts.slice(2)].join('$');
    expect(await verifyPassword('pw-12345', 'plain-text')).toBe(false);
    expect(await verifyPassword('pw-12345', `bcrypt$${parts.slice(1).join('$')}`)).toBe(false);
    expect(await verifyPassword('pw-12345', withCost('1000'))).toBe(false);
    expect(await verifyPassword('pw-12345', withCost(String(2 ** 24)))).toBe(false);
    expect(await verifyPassword('pw-12345', [...parts.slice(0, 5), 'AAAA'].join('$'))).toBe(false);
  });

  it('spends a verification on an unknown account and always fails', async () => {
    expect(await verifyNothing('anything')).toBe(false);
  });
});
