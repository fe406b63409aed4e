import type { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider from 'oidc-provider';
import type { TrustProxy } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { clientAddressFor, clientAddressOfRequest } from '../../middleware/clientAddress.ts';
import type { Logger } from '../../logger.ts';
import { handleInteraction, sendPage, type InteractionDeps } from './interactions.ts';
import { DEFAULT_SIGNUPS_PER_HOUR } from './throttle.ts';
import { loadIdpSecrets } from './keys.ts';
import { messagePage } from '../pages.ts';
import { CLIENT_ID, idpConfiguration } from './providerConfig.ts';

/** The identity provider served by the app itself when no hosted provider is configured. */
export interface EmbeddedIdp {
  /** `${publicUrl}/idp` — the issuer the app's relying party discovers. */
  issuer: string;
  /** `inkwell`. */
  clientId: string;
  /** Generated once, kept in server_secrets, so restarts keep working. */
  clientSecret: string;
  /** Handles every request whose path starts with /idp (the caller routes them here). */
  handle(req: IncomingMessage, res: ServerResponse): void;
}

/** Options of `createEmbeddedIdp`. */
export interface EmbeddedIdpOptions {
  /** Holds accounts, the provider's sessions and grants, its keys and the throttling counters. */
  db: Database;
  /** The app's origin as browsers reach it, such as `http://localhost:3000`. */
  publicUrl: string;
  logger: Logger;
  /** `TRUST_PROXY`: whose `X-Forwarded-For` names the client the throttles count (default: nobody's). */
  trustProxy?: TrustProxy;
  /** Accounts one address may create per hour (`IDP_SIGNUPS_PER_HOUR`, default 20). */
  signupsPerHour?: number;
}

/** Where the provider lives on the app's origin. */
const MOUNT_PATH = '/idp';

/** Events for requests the provider refused; logged without their parameters, which hold codes. */
const REFUSAL_EVENTS = [
  'authorization.error',
  'grant.error',
  'userinfo.error',
  'end_session.error',
  'end_session_confirm.error',
];

/** Starts the embedded OpenID provider (oidc-provider) with its keys and client from `db`. */
export async function createEmbeddedIdp(options: EmbeddedIdpOptions): Promise<EmbeddedIdp> {
  const { db, logger } = options;
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const origin = new URL(publicUrl);
  const issuer = `${publicUrl}${MOUNT_PATH}`;
  const secrets = await loadIdpSecrets(db);
  const provider = new Provider(
    issuer,
    idpConfiguration({ db, logger, publicUrl, mountPath: MOUNT_PATH, secrets }),
  );
  // Behind TLS termination the provider must see https to set Secure cookies and build https
  // URLs; `pinOrigin` overwrites the forwarded headers, so no value a client sends is trusted.
  provider.proxy = origin.protocol === 'https:';
  provider.on('server_error', (ctx, error) => {
    logger.error('idp: request failed', error, { method: ctx.method, path: ctx.path });
  });
  // The typings list only some of the events the provider (a Koa app) emits.
  const events: EventEmitter = provider;
  // Koa logs uncaught errors to the console unless the app has a listener of its own.
  events.on('error', (error: unknown) => logger.error('idp: request failed', error));
  for (const event of REFUSAL_EVENTS) {
    events.on(event, (_ctx: unknown, error: unknown) => {
      logger.info('idp: request refused', { event, ...describe(error) });
    });
  }

  const clientAddress = clientAddressFor(options.trustProxy ?? { kind: 'none' });
  const callback = provider.callback();
  const home = { href: `${publicUrl}/`, label: 'Go to Inkwell' };
  const deps: InteractionDeps = {
    provider,
    db,
    logger,
    mountPath: MOUNT_PATH,
    homeUrl: `${publicUrl}/`,
    clientIp: (req) => clientAddressOfRequest(clientAddress, req),
    signupsPerHour: options.signupsPerHour ?? DEFAULT_SIGNUPS_PER_HOUR,
  };

  const dispatch = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const rest = url.slice(MOUNT_PATH.length);
    if (!url.startsWith(MOUNT_PATH) || !/^(?:$|[/?])/.test(rest)) {
      sendPage(res, 404, messagePage('Page not found', 'There is nothing here.', home));
      return;
    }
    pinOrigin(req, origin);
    const { pathname, searchParams } = new URL(url, 'http://localhost');
    const interactionPrefix = `${MOUNT_PATH}/interaction/`;
    if (pathname.startsWith(interactionPrefix)) {
      await handleInteraction(
        deps,
        req,
        res,
        pathname.slice(interactionPrefix.length),
        searchParams,
      );
      return;
    }
    // oidc-provider finds its mount path by comparing `originalUrl` with the stripped `url`.
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = url;
    req.url = rest.startsWith('/') ? rest : `/${rest}`;
    await callback(req, res);
  };

  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: secrets.clientSecret,
    handle(req, res) {
      dispatch(req, res).catch((error: unknown) => {
        // Answer first: the browser must not hang whatever happens while logging.
        if (res.headersSent) {
          res.destroy();
        } else {
          const text = 'Inkwell could not finish this step. Try again in a moment.';
          sendPage(res, 500, messagePage('Something went wrong', text, home));
        }
        const path = (req.url ?? '').split('?')[0];
        logger.error('idp: request failed', error, { method: req.method, path });
      });
    },
  };
}

/**
 * Makes the provider see the request as arriving at the public origin, whatever Host or proxy
 * headers came with it: its URLs, cookies and issuer then always agree.
 */
function pinOrigin(req: IncomingMessage, origin: URL): void {
  req.headers.host = origin.host;
  delete req.headers['x-forwarded-host'];
  if (origin.protocol === 'https:') req.headers['x-forwarded-proto'] = 'https';
}

/** The error's OAuth code and the provider's explanation; never the request's parameters. */
function describe(error: unknown): { error: string; detail?: string } {
  if (!(error instanceof Error)) return { error: String(error) };
  const { error_detail: detail, error_description: description } = error as Error & {
    error_detail?: unknown;
    error_description?: unknown;
  };
  const explanation = typeof detail === 'string' ? detail : description;
  return typeof explanation === 'string'
    ? { error: error.message, detail: explanation }
    : { error: error.message };
}
