// Apart from errors.ts (which builds zod schemas) so that the browser can send state-changing
// requests before, or without, loading zod.

/** The header every state-changing `/api` request carries (docs/PRODUCT.md, "API and errors"). */
export const CSRF_HEADER = 'X-Inkwell-Request';
export const CSRF_HEADER_VALUE = '1';
