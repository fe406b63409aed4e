import * as oidc from 'openid-client';
import type { Logger } from '../logger.ts';

/** The identity provider the app signs people in with, embedded or hosted. */
export interface ProviderSettings {
  /** `embedded` is Inkwell's own provider at `/idp`; `hosted` is one set through `OIDC_*`. */
  kind: 'embedded' | 'hosted';
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Undefined follows the provider's metadata (basic first, as OpenID Connect's default). */
  tokenAuthMethod: 'client_secret_basic' | 'client_secret_post' | undefined;
}

/** What a successful sign-in yields. */
export interface SignInResult {
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
  /** Kept for `id_token_hint` at sign-out. */
  idToken: string | undefined;
}

/** The checks a callback must pass, saved when the sign-in started. */
export interface SignInChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * The OpenID Connect relying party (backend-for-frontend): the authorization-code flow with PKCE,
 * state and nonce through openid-client. The same code talks to the embedded and hosted providers.
 */
export class RelyingParty {
  readonly redirectUri: string;
  readonly signedOutUri: string;
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(
    readonly provider: ProviderSettings,
    publicUrl: string,
    private readonly logger: Logger,
  ) {
    this.redirectUri = `${publicUrl}/auth/callback`;
    this.signedOutUri = `${publicUrl}/auth/signed-out`;
  }

  /** The provider's URL to send the browser to, carrying the PKCE challenge, state and nonce. */
  async authorizationUrl(checks: SignInChecks): Promise<URL> {
    const config = await this.config();
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /**
   * Exchanges the code in `callbackUrl` for tokens and checks state, nonce, PKCE and the ID token's
   * signature, issuer, audience and expiry. Throws on any mismatch.
   */
  async finishSignIn(callbackUrl: URL, checks: SignInChecks): Promise<SignInResult> {
    const config = await this.config();
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('The provider sent no ID token.');
    const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email: text(claims.email),
      name: text(claims.name) ?? text(claims.preferred_username),
      idToken: tokens.id_token,
    };
  }

  /** Where to send the browser after the local session is gone, to end the provider's session too. */
  async signOutUrl(idToken: string | null): Promise<string> {
    try {
      const config = await this.config();
      if (!config.serverMetadata().end_session_endpoint) return this.signedOutUri;
      const params: Record<string, string> = {
        post_logout_redirect_uri: this.signedOutUri,
        client_id: this.provider.clientId,
      };
      if (idToken) params.id_token_hint = idToken;
      return oidc.buildEndSessionUrl(config, params).href;
    } catch (error) {
      this.logger.warn('Could not reach the identity provider to end its session.', {
        err: error,
      });
      return this.signedOutUri;
    }
  }

  /** Discovery happens on first use and again after a failure, so a provider that is down at start is retried. */
  private config(): Promise<oidc.Configuration> {
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      throw error;
    });
    return this.configuration;
  }

  private async discover(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.provider;
    const insecure = new URL(issuer).protocol === 'http:';
    const config = await oidc.discovery(
      new URL(issuer),
      clientId,
      { client_secret: clientSecret },
      clientAuthentication(clientSecret, this.provider.tokenAuthMethod),
      insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
    );
    this.logger.info('Identity provider discovered.', { issuer, kind: this.provider.kind });
    return config;
  }
}

/**
 * Authenticates at the token endpoint the way the provider's metadata asks: `client_secret_basic`
 * when offered (OpenID Connect's default), else `client_secret_post`, unless configured otherwise.
 */
function clientAuthentication(
  secret: string,
  override: ProviderSettings['tokenAuthMethod'],
): oidc.ClientAuth {
  const basic = oidc.ClientSecretBasic(secret);
  const post = oidc.ClientSecretPost(secret);
  return (server, client, body, headers) => {
    const supported = server.token_endpoint_auth_methods_supported;
    const method =
      override ??
      (supported &&
      !supported.includes('client_secret_basic') &&
      supported.includes('client_secret_post')
        ? 'client_secret_post'
        : 'client_secret_basic');
    return (method === 'client_secret_post' ? post : basic)(server, client, body, headers);
  };
}
