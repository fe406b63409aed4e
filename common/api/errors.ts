import { z } from 'zod';

/**
 * Every error code the API returns (docs/PRODUCT.md "API and errors"), with its HTTP status.
 * Clients branch on the code.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthenticated: 401,
  csrf_rejected: 403,
  not_found: 404,
  version_conflict: 409,
  payload_too_large: 413,
  unsupported_file_type: 415,
  invalid_document: 422,
  invalid_image: 422,
  rate_limited: 429,
  internal: 500,
  ai_upstream_error: 502,
  ai_not_configured: 503,
} as const;

/** A stable, machine-readable error code. */
export type ErrorCode = keyof typeof ERROR_STATUS;

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The body of every error response: `{ error: { code, message, ...details } }`. */
export const errorBodySchema = z.object({
  error: z.looseObject({
    code: z.enum(ERROR_CODES),
    message: z.string(),
  }),
});

/** The body of every error response. */
export type ErrorBody = z.infer<typeof errorBodySchema>;

export { CSRF_HEADER, CSRF_HEADER_VALUE } from './csrf.ts';
