import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { documentIdSchema } from '../../common/api/documents.ts';
import {
  changeRoleRequestSchema,
  findPersonQuerySchema,
  joinLinkRequestSchema,
  MAX_PUBLISH_DAYS,
  publishRequestSchema,
  setLinkRequestSchema,
  sharePersonRequestSchema,
  type FindPersonResponse,
  type JoinLinkResponse,
  type SharingState,
} from '../../common/api/sharing.ts';
import { hit, type RateRule } from '../db/rateLimits.ts';
import { documentRole } from '../documents/access.ts';
import { InvalidRequestError, NotFoundError, RateLimitedError } from '../errors.ts';
import { limitBody, parseWith, readJson } from '../middleware/readJson.ts';
import type { AppEnv, Services } from '../services.ts';
import { ShareStore, type SharingChange } from '../sharing/shareStore.ts';

/** Every sharing request body is a role, an address, a token or two settings. */
const BODY_BYTES = 16 * 1024;
/** Addresses one person may look up (or share with) in a minute. */
const LOOKUPS_PER_MINUTE = 30;

/**
 * Looking an address up tells whether it has an account here; counted per person, across
 * instances, so nobody can run through a list of addresses.
 */
const lookupsBy = (userId: string): RateRule => ({
  key: `people:user:${userId}`,
  limit: LOOKUPS_PER_MINUTE,
  windowSeconds: 60,
});

const userIdSchema = z.uuid();
const DAY_MS = 24 * 60 * 60 * 1000;

const missingDocument = () => NotFoundError('There is no such document.');
const missingPerson = () => NotFoundError('The document is not shared with this person.');
const noAccount = () => NotFoundError('No account uses this address.');

/**
 * The sharing API (docs/PRODUCT.md "API and errors"): looking people up, and the owner's
 * management of a document's people, link and published page; mounted behind `requireSession`
 * and the CSRF check. Anyone but the owner gets the 404 of a missing document.
 */
export function sharingRoutes(services: Services): Hono<AppEnv> {
  const store = new ShareStore(services.db, services.shareTokens, services.publicUrl);
  const app = new Hono<AppEnv>();
  const bodyLimit = limitBody(BODY_BYTES, 'The request');
  const userOf = (c: Context<AppEnv>) => c.get('session').user.id;
  const idOf = (c: Context<AppEnv>) => {
    const parsed = documentIdSchema.safeParse(c.req.param('id'));
    if (!parsed.success) throw missingDocument();
    return parsed.data;
  };
  /** The person in the path; a malformed id names nobody, said only to the owner. */
  const personOf = async (c: Context<AppEnv>, documentId: string) => {
    const parsed = userIdSchema.safeParse(c.req.param('userId'));
    if (parsed.success) return parsed.data;
    if ((await documentRole(services.db, userOf(c), documentId)) !== 'owner') {
      throw missingDocument();
    }
    throw missingPerson();
  };
  const countLookup = async (c: Context<AppEnv>) => {
    const wait = await hit(services.db, [lookupsBy(userOf(c))]);
    if (wait > 0) {
      throw RateLimitedError(
        wait,
        `Too many addresses looked up: at most ${LOOKUPS_PER_MINUTE} a minute. Try again in ${wait} s.`,
      );
    }
  };
  /** Live sockets that lost the document close; the change itself is done, so a failure is only logged. */
  const answer = async (
    c: Context<AppEnv>,
    documentId: string,
    outcome: SharingChange | 'missing',
  ) => {
    if (outcome === 'missing') throw missingDocument();
    if (outcome.narrowed) {
      await services.collab
        ?.accessChanged(documentId)
        .catch((error: unknown) =>
          services.logger.warn('Closing revoked live connections failed.', { err: error }),
        );
    }
    return c.json<SharingState>(outcome.state);
  };

  app.get('/api/people', async (c) => {
    const { email } = parseWith(findPersonQuerySchema, c.req.query());
    await countLookup(c);
    const person = await store.findPerson(email);
    if (!person) throw noAccount();
    return c.json<FindPersonResponse>({ person });
  });

  app.get('/api/documents/:id/sharing', async (c) => {
    const state = await store.state(userOf(c), idOf(c));
    if (!state) throw missingDocument();
    return c.json<SharingState>(state);
  });

  app.put('/api/documents/:id/sharing/people', bodyLimit, async (c) => {
    const id = idOf(c);
    const { email, role } = await readJson(c, sharePersonRequestSchema);
    // Sharing tells whether an address has an account as a lookup does: counted the same.
    await countLookup(c);
    const outcome = await store.sharePerson(userOf(c), id, email, role);
    if (outcome === 'no-account') throw noAccount();
    if (outcome === 'self') throw InvalidRequestError('You own this document already.');
    return answer(c, id, outcome);
  });

  app.patch('/api/documents/:id/sharing/people/:userId', bodyLimit, async (c) => {
    const id = idOf(c);
    const { role } = await readJson(c, changeRoleRequestSchema);
    const outcome = await store.changeRole(userOf(c), id, await personOf(c, id), role);
    if (outcome === 'not-shared') throw missingPerson();
    return answer(c, id, outcome);
  });

  app.delete('/api/documents/:id/sharing/people/:userId', async (c) => {
    const id = idOf(c);
    const outcome = await store.removePerson(userOf(c), id, await personOf(c, id));
    if (outcome === 'not-shared') throw missingPerson();
    return answer(c, id, outcome);
  });

  app.put('/api/documents/:id/sharing/link', bodyLimit, async (c) => {
    const id = idOf(c);
    const { role } = await readJson(c, setLinkRequestSchema);
    return answer(c, id, await store.setLink(userOf(c), id, role));
  });

  app.post('/api/documents/:id/sharing/link/reset', async (c) => {
    const id = idOf(c);
    const outcome = await store.resetLink(userOf(c), id);
    if (outcome === 'no-link') throw NotFoundError('The document has no link: turn it on first.');
    return answer(c, id, outcome);
  });

  app.delete('/api/documents/:id/sharing/link', async (c) => {
    const id = idOf(c);
    return answer(c, id, await store.deleteLink(userOf(c), id));
  });

  app.put('/api/documents/:id/sharing/publish', bodyLimit, async (c) => {
    const id = idOf(c);
    const { indexable, expiresAt } = await readJson(c, publishRequestSchema);
    return answer(
      c,
      id,
      await store.publish(userOf(c), id, { indexable, expiresAt: expiryOf(expiresAt) }),
    );
  });

  app.delete('/api/documents/:id/sharing/publish', async (c) => {
    const id = idOf(c);
    return answer(c, id, await store.unpublish(userOf(c), id));
  });

  app.post('/api/share-links/join', bodyLimit, async (c) => {
    const { token } = await readJson(c, joinLinkRequestSchema);
    const joined = await store.join(userOf(c), token);
    if (!joined) throw NotFoundError('This link does not open any document now.');
    return c.json<JoinLinkResponse>(joined);
  });

  return app;
}

/** A publish request's expiry as a time in the allowed future, or null for none; 400 otherwise. */
function expiryOf(expiresAt: string | null): Date | null {
  if (expiresAt === null) return null;
  // The schema has refused days the calendar lacks, so this is a real time.
  const at = new Date(expiresAt);
  const now = Date.now();
  if (at.getTime() <= now) throw InvalidRequestError('An expiry must be in the future.');
  if (at.getTime() > now + MAX_PUBLISH_DAYS * DAY_MS) {
    throw InvalidRequestError(`An expiry is at most ${MAX_PUBLISH_DAYS} days away.`);
  }
  return at;
}
