import { z } from 'zod';

/** `GET /api/me` — who is signed in. 401 `unauthenticated` when nobody is. */
export const meResponseSchema = z.object({
  user: z.object({
    id: z.string(),
    email: z.string().nullable(),
    name: z.string().nullable(),
  }),
  /** The identity provider: `embedded` (Inkwell's own) or the hosted issuer's URL. */
  provider: z.object({ kind: z.enum(['embedded', 'hosted']), issuer: z.string() }),
});
export type MeResponse = z.infer<typeof meResponseSchema>;

/** `POST /api/session/logout` — where the browser goes next to end the provider's session too. */
export const logoutResponseSchema = z.object({ redirectTo: z.string() });
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;
