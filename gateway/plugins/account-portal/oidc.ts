// Sign-in through the organisation's identity provider with OpenID Connect: the authorization
// code flow with PKCE, through openid-client (which checks the state, the nonce, the ID token's
// issuer, audience, signature and lifetime, and the RFC 9207 `iss` of the authorization response).
// What the flow needs on the way back (state, nonce, PKCE verifier) is kept server-side in the
// browser's session before sign-in, so a callback only works in the browser that started it.
import * as oidc from 'openid-client';
import { ConfigError } from '../../../lib/config-validation.ts';
import type { OidcOptions } from './options.ts';

/** What a sign-in under way keeps in its session until the provider sends the browser back. */
export interface OidcFlow {
  state: string;
  nonce: string;
  verifier: string;
}

/** Who the provider says signed in. */
export interface OidcIdentity {
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
}

/** The provider could not be reached, or its discovery document is not one for `issuer`. */
export class ProviderUnavailable extends Error {
  override name = 'ProviderUnavailable';
}

export interface OidcSignIn {
  readonly buttonLabel: string;
  readonly redirectPath: string;
  /** The provider's authorization address for a new flow, and the flow to keep in the session. */
  begin(redirectUri: string): Promise<{ location: string; flow: OidcFlow }>;
  /** The identity of a callback; throws when any check fails (state, nonce, issuer, code, PKCE). */
  finish(redirectUri: string, query: URLSearchParams, flow: OidcFlow): Promise<OidcIdentity>;
}

export function createOidcSignIn(options: OidcOptions, env: NodeJS.ProcessEnv, where: string): OidcSignIn {
  const secret = env[options.clientSecretEnv];
  if (!secret) throw new ConfigError(`${where}.oidc: the client secret is read from ${options.clientSecretEnv}, which is not set`);
  const issuer = new URL(options.issuer);
  // The option's schema allows plain HTTP for a provider on this machine only.
  const execute = issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
  let configuration: Promise<oidc.Configuration> | undefined;
  // Discovered on first use and kept; a failed discovery is tried again by the next sign-in.
  const discovered = () =>
    (configuration ??= oidc.discovery(issuer, options.clientId, secret, undefined, { execute, timeout: 10 }).catch((error: unknown) => {
      configuration = undefined;
      throw new ProviderUnavailable(`the identity provider at ${issuer.href} did not answer as ${issuer.href}`, { cause: error });
    }));

  return {
    buttonLabel: options.buttonLabel,
    redirectPath: options.redirectPath,
    async begin(redirectUri) {
      const config = await discovered();
      const flow: OidcFlow = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
      const location = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email',
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
      });
      return { location: location.href, flow };
    },
    async finish(redirectUri, query, flow) {
      const config = await discovered();
      // openid-client takes the redirect_uri of the token request from this URL, less its query.
      const current = new URL(redirectUri);
      current.search = query.toString();
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      // Many providers put the email in the ID token only when asked for it by `claims`; the
      // UserInfo endpoint, read with the access token and checked for the same subject, has it.
      const source = typeof claims.email === 'string' ? claims : await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      return {
        subject: claims.sub,
        email: typeof source.email === 'string' ? source.email : undefined,
        emailVerified: source.email_verified === true,
      };
    },
  };
}

/** A flow read back from a session; undefined when it is not one. */
export function parseFlow(text: string | null): OidcFlow | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<OidcFlow>;
    if (typeof value.state === 'string' && typeof value.nonce === 'string' && typeof value.verifier === 'string') {
      return { state: value.state, nonce: value.nonce, verifier: value.verifier };
    }
  } catch {
    // Not JSON: not a flow this gateway wrote, so there is none to finish (the callback is refused).
  }
  return undefined;
}
