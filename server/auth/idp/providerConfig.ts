import type { Configuration, Grant, KoaContextWithOIDC } from 'oidc-provider';
import type { Queryable } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { findAccountById } from './accounts.ts';
import { createPostgresAdapter } from './adapter.ts';
import type { IdpSecrets } from './keys.ts';
import { PAGE_HEADERS, messagePage, signOutPage } from '../pages.ts';

/** The one client of the embedded provider: the app itself. */
export const CLIENT_ID = 'inkwell';

const SCOPE = 'openid email profile';
const DAY = 24 * 60 * 60;

/** Options of `idpConfiguration`. */
export interface IdpConfigurationOptions {
  db: Queryable;
  logger: Logger;
  /** The app's origin, such as `http://localhost:3000`. */
  publicUrl: string;
  /** Path the provider is mounted at, such as `/idp`. */
  mountPath: string;
  secrets: IdpSecrets;
}

/** oidc-provider's configuration for the embedded provider. */
export function idpConfiguration(options: IdpConfigurationOptions): Configuration {
  const { db, publicUrl, mountPath, secrets } = options;
  const secure = publicUrl.startsWith('https:');
  const home = { href: `${publicUrl}/`, label: 'Go to Inkwell' };
  const cookie = { httpOnly: true, sameSite: 'lax', secure } as const;

  return {
    adapter: createPostgresAdapter(db, options.logger),
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: secrets.clientSecret,
        client_name: 'Inkwell',
        redirect_uris: [`${publicUrl}/auth/callback`],
        post_logout_redirect_uris: [`${publicUrl}/auth/signed-out`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'RS256',
        scope: SCOPE,
      },
    ],
    clientAuthMethods: ['client_secret_basic'],
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    jwks: { keys: secrets.signingKeys },
    responseTypes: ['code'],
    // Off by default for confidential clients; the app always sends S256 anyway.
    pkce: { required: () => true },
    scopes: ['openid'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The app reads e-mail and name from the ID token rather than calling userinfo.
    conformIdTokenClaims: false,
    cookies: {
      names: { session: '_idp_session', interaction: '_idp_interaction', resume: '_idp_resume' },
      // Only the session cookie would default to path `/`; the others get narrower paths already.
      long: { ...cookie, path: mountPath },
      short: cookie,
      keys: secrets.cookieKeys,
    },
    ttl: {
      AccessToken: 60 * 60,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Session: 14 * DAY,
      Grant: 14 * DAY,
    },
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: { enabled: false },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.set(PAGE_HEADERS);
          ctx.body = signOutPage(form);
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.set(PAGE_HEADERS);
          ctx.body = messagePage('You are signed out', 'You have signed out of Inkwell.', home);
        },
      },
    },
    interactions: {
      url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}`,
    },
    loadExistingGrant,
    findAccount: async (_ctx, sub) => {
      const account = await findAccountById(db, sub);
      if (!account) return undefined;
      return {
        accountId: account.id,
        claims: () => ({
          sub: account.id,
          email: account.email,
          // Nobody proves they own the address when creating an account here.
          email_verified: false,
          name: account.name,
        }),
      };
    },
    renderError: (ctx, out) => {
      ctx.set(PAGE_HEADERS);
      const detail = out.error_description ?? out.error;
      const text = `The sign-in request could not be completed (${detail}). Start again from Inkwell.`;
      ctx.body = messagePage('Sign-in could not continue', text, home);
    },
    clientBasedCORS: () => false,
  };
}

/**
 * The app is first-party, so a signed-in person is never asked to consent: the grant for the
 * client's scopes is created (or refreshed) here, and the consent prompt finds nothing missing.
 */
async function loadExistingGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const { client, account, session, provider } = ctx.oidc;
  if (!client || !account || !session || client.clientId !== CLIENT_ID) return undefined;
  const grantId = session.grantIdFor(client.clientId);
  const existing = grantId ? await provider.Grant.find(grantId) : undefined;
  const grant =
    existing?.accountId === account.accountId
      ? existing
      : new provider.Grant({ clientId: client.clientId, accountId: account.accountId });
  grant.addOIDCScope(SCOPE);
  await grant.save();
  return grant;
}
