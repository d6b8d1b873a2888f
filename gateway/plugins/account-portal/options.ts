import { z } from 'zod';

const path = z
  .string()
  .regex(/^\/[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, 'must be a path such as /account (no trailing slash)');
const origin = z
  .string()
  .refine((value) => URL.canParse(value) && new URL(value).origin === value, 'must be an origin such as https://api.example.com (scheme, host and port only)');
const count = (fallback: number, max: number) => z.number().int().min(1).max(max).default(fallback);
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** HTTPS, or plain HTTP on this machine only (a provider a test or a developer runs locally). */
const issuer = z
  .string()
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  }, 'must be an https:// URL (http:// only for 127.0.0.1, localhost or [::1])');

/** Sign-in through the organisation's identity provider (authorization code flow with PKCE). */
export const oidcOptions = z
  .object({
    /** The provider's issuer identifier; its discovery document is at <issuer>/.well-known/openid-configuration. */
    issuer,
    /** The portal's client id at the provider. */
    clientId: z.string().min(1).max(255),
    /** The environment variable holding the client secret (never in .meshrc.yaml, never logged). @default "PORTAL_OIDC_CLIENT_SECRET" */
    clientSecretEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name such as PORTAL_OIDC_CLIENT_SECRET')
      .default('PORTAL_OIDC_CLIENT_SECRET'),
    /** Where the provider sends the browser back, under the portal's path; register <origin><path><redirectPath> at the provider. @default "/oidc/callback" */
    redirectPath: path.default('/oidc/callback'),
    /** The sign-in page's button. @default "Sign in with your organisation" */
    buttonLabel: z.string().trim().min(1).max(80).default('Sign in with your organisation'),
  })
  .strict();

export const accountPortalOptions = z
  .object({
    /** Where the portal is served: its pages are this path and the paths under it. @default "/account" */
    path: path.default('/account'),
    /** `open`: anyone may sign up; `invite`: only with a code from `accounts invite`. @default "open" */
    signUps: z.enum(['open', 'invite']).default('open'),
    /** How long a signed-in session lasts (it ends earlier with Sign out). @default 12 */
    sessionHours: count(12, 24 * 30),
    /**
     * `auto`: cookies are Secure when the request came over TLS, or a trusted proxy (the gateway's
     * trustedProxies) says X-Forwarded-Proto: https; `always` or `never` to decide here. @default "auto"
     */
    secureCookies: z.enum(['auto', 'always', 'never']).default('auto'),
    /**
     * Origins whose form posts are accepted besides the request's own (the scheme and Host it
     * came with): the public origin when a proxy rewrites Host. @default []
     */
    allowedOrigins: z.array(origin).default([]),
    /** Failed sign-ins allowed per email and per client address within windowSeconds; then 429 until the window ends. */
    signInThrottle: z
      .object({
        perEmail: count(5, 1000),
        perAddress: count(20, 100_000),
        windowSeconds: count(900, 86_400),
      })
      .strict()
      .default({ perEmail: 5, perAddress: 20, windowSeconds: 900 }),
    /** Sign-up attempts allowed per client address within signInThrottle.windowSeconds. @default 10 */
    signUpsPerAddress: count(10, 100_000),
    /** Keys an account may hold at once. @default 10 */
    maxKeysPerAccount: count(10, 1000),
    /** The hourly limit given to keys made on the portal (rate-limit's hourlyLimit is for keys without one). @default 1000 */
    keyHourlyLimit: count(1000, 10_000_000),
    /**
     * The premium icons an account owns, listed on its profile page with their files at signed
     * addresses (icon-files' paths; URL_SIGNING_SECRET, as catalogue-context signs them).
     */
    ownedIcons: z
      .object({
        svgPath: path.default('/svg'),
        pngPath: path.default('/png'),
        signedUrlSeconds: z.number().int().min(60).max(7 * 86_400).default(3600),
        maxListed: count(500, 10_000),
      })
      .strict()
      .default({ svgPath: '/svg', pngPath: '/png', signedUrlSeconds: 3600, maxListed: 500 }),
    /** Where sessions are kept: `postgres` (account_sessions) or `redis` (REDIS_URL). */
    sessions: z
      .object({ store: z.enum(['postgres', 'redis']).default('postgres') })
      .strict()
      .default({ store: 'postgres' }),
    /** Sign-in with OpenID Connect besides passwords; absent: off. */
    oidc: oidcOptions.optional(),
    /** Requests per key and hour, recorded in batches (for the usage charts). enabled: false on a gateway whose database is a read replica. */
    usage: z
      .object({
        enabled: z.boolean().default(true),
        flushSeconds: z.number().min(0.05).max(300).default(5),
        keepDays: count(30, 400),
        /** Key-hours held while the database cannot take them; more are dropped. */
        maxPending: count(100_000, 10_000_000),
      })
      .strict()
      .default({ enabled: true, flushSeconds: 5, keepDays: 30, maxPending: 100_000 }),
  })
  .strict();

export type AccountPortalOptions = z.infer<typeof accountPortalOptions>;
export type OidcOptions = z.infer<typeof oidcOptions>;
