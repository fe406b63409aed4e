import type { MiddlewareHandler } from 'hono';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../common/api/errors.ts';
import { CsrfError } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * docs/PRODUCT.md "Sign-in": a state-changing request must carry `X-Inkwell-Request: 1` (which a
 * cross-site form cannot set without a CORS preflight we never grant) and an `Origin` equal to
 * ours.
 */
export function csrfProtection(publicOrigin: string): MiddlewareHandler {
  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method)) {
      if (c.req.header(CSRF_HEADER) !== CSRF_HEADER_VALUE) {
        throw CsrfError(`The request lacks the ${CSRF_HEADER} header.`);
      }
      if (c.req.header('Origin') !== publicOrigin) {
        throw CsrfError('The request comes from another site.');
      }
    }
    await next();
  };
}
