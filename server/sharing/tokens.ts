import { createHash, createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { loadOrCreateSecret } from '../auth/idp/keys.ts';
import type { Queryable } from '../db/database.ts';

/**
 * The tokens in share-link and published-page addresses (docs/ARCHITECTURE.md "Data"). The
 * database never holds a token: it holds a random nonce per link, from which the token is
 * derived with the server's key (HMAC-SHA-256, 256 bits, so the owner can be shown the address
 * again), and the token's SHA-256, by which a request's token is found. Both kinds share the key;
 * the label keeps a link's token and a page's token different even for one nonce.
 */
export class ShareTokens {
  private constructor(private readonly key: Buffer) {}

  /** The server's key, made once and kept in `server_secrets`, so addresses survive restarts. */
  static async load(db: Queryable): Promise<ShareTokens> {
    const key = await loadOrCreateSecret(db, 'share_token_key', z.string().min(43), () =>
      randomBytes(32).toString('base64url'),
    );
    return new ShareTokens(Buffer.from(key, 'base64url'));
  }

  /** A fresh nonce with its token and the token's hash, for a new link or page. */
  issue(kind: TokenKind): { nonce: Buffer; token: string; hash: Buffer } {
    const nonce = randomBytes(32);
    const token = this.tokenOf(kind, nonce);
    return { nonce, token, hash: tokenHash(token) };
  }

  /** The token a stored nonce stands for. */
  tokenOf(kind: TokenKind, nonce: Buffer): string {
    return createHmac('sha256', this.key).update(kind).update(nonce).digest('base64url');
  }
}

/** What a token opens: a share link, or a published page. */
export type TokenKind = 'link' | 'page';

/** The SHA-256 a token is stored and looked up by. */
export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
