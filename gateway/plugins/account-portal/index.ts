// The account portal (issue 49): where people sign up, sign in, make and revoke their own API
// keys and see what those keys used. It is the only writer among the gateway's paths, so it
// keeps to itself: it is answered in the route phase, before api-key-auth, and reads no API key
// at all (a key can do nothing here), while the API never reads the portal's cookie.
//
// What it defends against, and how:
// - stolen sessions: the cookie holds a random token (only its digest is stored), HttpOnly,
//   SameSite=Lax, Secure over HTTPS (then named __Host-), rotated at sign-in so that a token
//   planted before sign-in (session fixation) is worth nothing after it; "End all sessions"
//   deletes every session of the account.
// - cross-site requests: every POST must carry the session's synchronizer token and come from
//   this origin (Origin, else Sec-Fetch-Site, else Referer); SameSite=Lax is a third layer.
// - password guessing: failed sign-ins are counted per email and per client address in the
//   database (every gateway shares the count); past the limit, 429 until the window ends.
// - account discovery: an unknown email is answered as a wrong password is, after hashing a
//   dummy password so that it takes as long.
// - leaks: passwords are hashed with scrypt, keys stored as today (a digest) and shown once, and
//   no form field, token or key is logged (the access log has the path without its query).
import { timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatPath } from '../../../lib/config-validation.ts';
import { logger } from '../../../lib/logger.ts';
import { PROJECT_ROOT } from '../../../lib/project-root.ts';
import { createUrlSigner, signingSecret, type UrlSigner } from '../../../lib/url-signing.ts';
import { ownedIcons } from '../../../prisma/accounts/ownership.ts';
import { createKeyOf } from '../../../prisma/accounts/api-keys.ts';
import { accountUsage, hourOf } from '../../../prisma/accounts/key-usage.ts';
import { dummyPasswordHash, hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyPassword } from '../../../prisma/accounts/passwords.ts';
import {
  accountOfVerifiedEmail,
  clearSignInFailures,
  deleteEndedSignInFailures,
  findLogin,
  listAccountKeys,
  normalizeEmail,
  recordSignInFailure,
  revokeAccountKey,
  signInFailures,
  signUp,
  type PortalSession,
} from '../../../prisma/accounts/portal.ts';
import type { PrismaClient } from '../../../prisma/generated/client.ts';
import type { Exchange, GatewayResponse } from '../../pipeline/exchange.ts';
import type { GatewayPlugin, PluginFactory } from '../../pipeline/plugin.ts';
import { errorResponse, methodNotAllowed, READ_METHODS } from '../../pipeline/responses.ts';
import { parsePluginOptions } from '../options.ts';
import { cameOverHttps, cookieValue, readForm, sameOrigin } from './http.ts';
import { createOidcSignIn, parseFlow, ProviderUnavailable } from './oidc.ts';
import { accountPortalOptions } from './options.ts';
import { messagePage, page, profile, signInForm, signUpForm, type OwnedIcon, type UsageSeries } from './pages.ts';
import { postgresSessions, redisSessions } from './session-store.ts';
import { createUsageRecorder } from './usage.ts';

const SITE = join(PROJECT_ROOT, 'gateway', 'plugins', 'account-portal', 'site');
/** Where the signing secret is made when URL_SIGNING_SECRET is not set (as catalogue-context finds it). */
const DATA_DIR = join(PROJECT_ROOT, '.data');
const ASSETS: Record<string, string> = { '/portal.css': 'text/css; charset=utf-8', '/portal.js': 'text/javascript; charset=utf-8' };

/** Scripts, styles and images from this origin only; forms post here only; never framed. */
const POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/** A session before sign-in only carries the forms' CSRF token: an hour is plenty to fill one in. */
const ANONYMOUS_SESSION_MS = 3_600_000;
const CLEANUP_INTERVAL_MS = 3_600_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PUBLIC_ID = /^[a-z0-9]{10}$/;

/** The same words for an unknown email, a wrong password and a disabled account. */
const WRONG_SIGN_IN = 'The email or the password is not right.';

interface Visit {
  exchange: Exchange;
  https: boolean;
  cookieName: string;
  session: PortalSession | null;
}

export const useAccountPortal: PluginFactory = (rawOptions, services, where): GatewayPlugin => {
  const options = parsePluginOptions(accountPortalOptions, rawOptions, where);
  const base = options.path;
  const sessionMs = options.sessionHours * 3_600_000;
  const prisma = async () => (await services.database()).prisma;
  const usage = createUsageRecorder({ prisma, ...options.usage });
  let dummyHash: Promise<string> | undefined;
  const dummy = () => (dummyHash ??= dummyPasswordHash());
  let nextCleanup = 0;
  const assetCache = new Map<string, Buffer>();
  const assets = { css: `${base}/portal.css`, js: `${base}/portal.js` };
  const provider = options.oidc && createOidcSignIn(options.oidc, services.env, formatPath(where));
  const sessions = options.sessions.store === 'redis' ? redisSessions(prisma, services, formatPath(where)) : postgresSessions(prisma);

  // Made on first use, as catalogue-context's: `mesh build` loads plugins without serving.
  let signer: UrlSigner | undefined;
  /** A file's address signed for its icon, valid for signedUrlSeconds (rounded up as the resolvers round it). */
  const signed = (url: string, iconId: number) => {
    signer ??= createUrlSigner(signingSecret(services.env, DATA_DIR));
    const seconds = options.ownedIcons.signedUrlSeconds;
    const step = Math.max(1, Math.floor(seconds / 4));
    const expires = Math.ceil((Date.now() / 1000 + seconds) / step) * step;
    return `${url}?expires=${expires}&signature=${signer.sign(String(iconId), expires)}`;
  };
  async function iconsOf(client: PrismaClient, accountId: number): Promise<OwnedIcon[]> {
    const { svgPath, pngPath, maxListed } = options.ownedIcons;
    const segment = encodeURIComponent;
    return (await ownedIcons(client, accountId, maxListed)).map((icon) => {
      const svgUrl = signed(`${svgPath}/${segment(icon.prefix)}/${segment(icon.sourceName)}.svg`, icon.id);
      return { ...icon, previewUrl: svgUrl, svgUrl, pngUrl: signed(`${pngPath}/${segment(icon.prefix)}/${segment(icon.sourceName)}.png`, icon.id) };
    });
  }

  // ---- responses ----

  const html = (status: number, title: string, main: string, visit: Visit, extra: Record<string, string> = {}): GatewayResponse => {
    const account = visit.session?.account;
    const body = page({ base, title, assets, ...(account && { signedInAs: account.email ?? account.name, csrf: visit.session!.csrfToken }) }, main);
    return { status, body, headers: { ...PAGE_HEADERS, ...extra } };
  };
  const redirect = (location: string, extra: Record<string, string> = {}): GatewayResponse => ({
    status: 303,
    body: '',
    headers: { location, 'cache-control': 'no-store', ...extra },
  });
  const cookie = (visit: Visit, token: string, maxAgeSeconds: number) => ({
    'set-cookie': `${visit.cookieName}=${token}; Path=${visit.https ? '/' : base}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${visit.https ? '; Secure' : ''}`,
  });
  const forbidden = (visit: Visit) =>
    html(403, 'Refused', messagePage('Refused', 'This form did not come from this page, or it expired. Reload the page and try again.'), visit);

  // ---- sessions ----

  async function anonymousSession(visit: Visit): Promise<{ session: PortalSession; headers: Record<string, string> }> {
    if (visit.session) return { session: visit.session, headers: {} };
    const { token, session } = await sessions.create(null, ANONYMOUS_SESSION_MS);
    visit.session = session;
    return { session, headers: cookie(visit, token, ANONYMOUS_SESSION_MS / 1000) };
  }

  /** Whether a POST carries the session's token and comes from this origin. */
  function genuine(visit: Visit, form: URLSearchParams): boolean {
    if (!sameOrigin(visit.exchange, visit.https, options.allowedOrigins)) return false;
    const token = form.get('csrf');
    return visit.session !== null && token !== null && sameText(token, visit.session.csrfToken);
  }

  function cleanUpNow(client: PrismaClient): void {
    if (Date.now() < nextCleanup) return;
    nextCleanup = Date.now() + CLEANUP_INTERVAL_MS;
    Promise.all([sessions.deleteExpired(), deleteEndedSignInFailures(client)]).catch(() => {
      nextCleanup = 0;
    });
  }

  // ---- throttling ----

  /** A 429 when any of `keys` has reached its limit in the current window. */
  async function throttled(client: PrismaClient, visit: Visit, limits: Record<string, number>, render: () => string, title: string): Promise<GatewayResponse | undefined> {
    const counted = await signInFailures(client, Object.keys(limits));
    let until = 0;
    for (const [key, limit] of Object.entries(limits)) {
      const entry = counted.get(key);
      if (entry && entry.failures >= limit) until = Math.max(until, entry.windowEndsAt.getTime());
    }
    if (!until) return undefined;
    const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
    const minutes = Math.ceil(seconds / 60);
    return html(429, title, `${render()}\n${messagePage('Too many attempts', `Too many attempts from here or for this email. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`)}`, visit, {
      'retry-after': String(seconds),
    });
  }

  // ---- pages ----

  async function signInPage(visit: Visit): Promise<GatewayResponse> {
    if (visit.session?.account) return redirect(base);
    const { session, headers } = await anonymousSession(visit);
    const query = visit.exchange.query;
    const notice = query.has('created') ? 'Your account is ready: sign in.' : query.has('ended') ? 'Every session has ended.' : undefined;
    return html(200, 'Sign in', signInForm(base, session.csrfToken, { notice }, provider?.buttonLabel), visit, headers);
  }

  async function signIn(visit: Visit, form: URLSearchParams): Promise<GatewayResponse> {
    const client = await prisma();
    cleanUpNow(client);
    const email = normalizeEmail(form.get('email') ?? '');
    const password = form.get('password') ?? '';
    const again = (status: number, error: string) => html(status, 'Sign in', signInForm(base, visit.session!.csrfToken, { error }, provider?.buttonLabel), visit);
    if (!email || !password || email.length > 254 || password.length > PASSWORD_MAX_LENGTH) return again(400, 'Enter your email and your password.');
    const { perEmail, perAddress, windowSeconds } = options.signInThrottle;
    const emailKey = `sign-in:email:${email}`;
    const addressKey = `sign-in:address:${visit.exchange.ip}`;
    const refused = await throttled(client, visit, { [emailKey]: perEmail, [addressKey]: perAddress }, () => signInForm(base, visit.session!.csrfToken, {}, provider?.buttonLabel), 'Sign in');
    if (refused) return refused;
    const login = await findLogin(client, email);
    // Unknown emails are checked against a dummy hash: the answer takes as long as a wrong password's.
    const matches = await verifyPassword(password, login?.passwordHash ?? (await dummy()));
    if (!matches || !login || login.disabled) {
      await recordSignInFailure(client, [emailKey, addressKey], windowSeconds);
      return again(401, WRONG_SIGN_IN);
    }
    await clearSignInFailures(client, [emailKey]);
    return signedIn(visit, login.accountId);
  }

  /** A new session (new token, new CSRF token): the one from before sign-in ends here. */
  async function signedIn(visit: Visit, accountId: number): Promise<GatewayResponse> {
    if (visit.session) await sessions.delete(visit.session.id);
    const { token } = await sessions.create(accountId, sessionMs);
    return redirect(base, cookie(visit, token, sessionMs / 1000));
  }

  // ---- sign-in with OpenID Connect ----

  /** Where the provider sends the browser back: this origin (as the request names it) and redirectPath. */
  const redirectUri = (visit: Visit) => `${visit.https ? 'https' : 'http'}://${visit.exchange.header('host') ?? ''}${base}${provider!.redirectPath}`;
  const providerRefused = (visit: Visit, status: number, text: string) =>
    html(status, 'Sign in', `${messagePage('Sign-in refused', text)}\n<p><a href="${base}/sign-in">Back to sign in</a></p>`, visit);
  const providerDown = (visit: Visit, error: unknown) => {
    logger.warn({ msg: `account-portal: ${(error as Error).message}`, plugin: 'account-portal', cause: String((error as Error).cause ?? '') });
    return providerRefused(visit, 502, 'The identity provider cannot be reached now. Try again later, or sign in with your password.');
  };

  async function beginProviderSignIn(visit: Visit): Promise<GatewayResponse> {
    try {
      const { location, flow } = await provider!.begin(redirectUri(visit));
      await sessions.setFlow(visit.session!.id, JSON.stringify(flow));
      return redirect(location);
    } catch (error) {
      if (error instanceof ProviderUnavailable) return providerDown(visit, error);
      throw error;
    }
  }

  async function finishProviderSignIn(visit: Visit): Promise<GatewayResponse> {
    const flow = parseFlow(visit.session?.oidcFlow ?? null);
    if (!visit.session || !flow) return providerRefused(visit, 400, 'This sign-in did not start in this browser, or it was used already. Sign in again.');
    // Once only, whatever comes of it.
    await sessions.setFlow(visit.session.id, null);
    let identity: Awaited<ReturnType<NonNullable<typeof provider>['finish']>>;
    try {
      identity = await provider!.finish(redirectUri(visit), visit.exchange.query, flow);
    } catch (error) {
      if (error instanceof ProviderUnavailable) return providerDown(visit, error);
      // A wrong state, nonce or issuer, a refused code: the answer says no more than that.
      logger.warn({ msg: 'account-portal: a sign-in with the identity provider failed its checks', plugin: 'account-portal', reason: (error as { code?: string }).code ?? (error as Error).name });
      return providerRefused(visit, 401, 'The identity provider’s answer did not pass the checks. Sign in again.');
    }
    if (!identity.email || !identity.emailVerified) {
      return providerRefused(visit, 403, 'Your identity provider has not verified your email address, so it cannot name an account here.');
    }
    const email = normalizeEmail(identity.email);
    if (email.length > 254 || !EMAIL.test(email)) return providerRefused(visit, 403, 'Your identity provider’s email address is not one an account can have.');
    const outcome = await accountOfVerifiedEmail(await prisma(), email, options.signUps === 'open' ? dummyPasswordHash : undefined);
    if ('refused' in outcome) {
      return providerRefused(visit, 403, outcome.refused === 'unknown' ? 'There is no account with this email, and sign-ups are by invitation.' : WRONG_SIGN_IN);
    }
    return signedIn(visit, outcome.accountId);
  }

  async function signUpPage(visit: Visit): Promise<GatewayResponse> {
    if (visit.session?.account) return redirect(base);
    const { session, headers } = await anonymousSession(visit);
    const invitation = visit.exchange.query.get('invitation') ?? undefined;
    const email = visit.exchange.query.get('email') ?? undefined;
    const form = signUpForm(base, session.csrfToken, { invite: options.signUps === 'invite', invitation, email, minLength: PASSWORD_MIN_LENGTH }, {});
    return html(200, 'Create an account', form, visit, headers);
  }

  async function signUpSubmit(visit: Visit, form: URLSearchParams): Promise<GatewayResponse> {
    const client = await prisma();
    cleanUpNow(client);
    const email = normalizeEmail(form.get('email') ?? '');
    const password = form.get('password') ?? '';
    const invitation = options.signUps === 'invite' ? (form.get('invitation') ?? '').trim() : undefined;
    const render = (error?: string) =>
      signUpForm(base, visit.session!.csrfToken, { invite: options.signUps === 'invite', invitation, email, minLength: PASSWORD_MIN_LENGTH }, { error });
    const again = (error: string) => html(400, 'Create an account', render(error), visit);
    const addressKey = `sign-up:address:${visit.exchange.ip}`;
    const refused = await throttled(client, visit, { [addressKey]: options.signUpsPerAddress }, () => render(), 'Create an account');
    if (refused) return refused;
    await recordSignInFailure(client, [addressKey], options.signInThrottle.windowSeconds);
    if (email.length > 254 || !EMAIL.test(email)) return again('Enter a valid email address.');
    if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
      return again(`Choose a password of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`);
    }
    if (invitation === '') return again('Sign-ups are by invitation: enter your invitation code.');
    const outcome = await signUp(client, { email, passwordHash: await hashPassword(password), invitation });
    if ('refused' in outcome) {
      return again(
        outcome.refused === 'invitation'
          ? 'This invitation code is not valid for this email (or it was used, or it expired).'
          : 'An account with this email exists already: sign in instead.',
      );
    }
    return redirect(`${base}/sign-in?created=1`);
  }

  async function profilePage(visit: Visit, status = 200, extra: { created?: { key: string; name: string }; error?: string } = {}): Promise<GatewayResponse> {
    const account = visit.session!.account!;
    const client = await prisma();
    const now = Date.now();
    const hoursBack = options.usage.keepDays * 24;
    const firstHour = hourOf(now) * 1000 - (hoursBack - 1) * 3_600_000;
    const firstDay = Math.floor(now / 86_400_000) * 86_400_000 - (options.usage.keepDays - 1) * 86_400_000;
    const [keys, icons] = await Promise.all([listAccountKeys(client, account.id), iconsOf(client, account.id)]);
    const { rows, pending } = await usage.quietly(async () => {
      const written = await accountUsage(client, account.id, new Date(Math.min(firstHour, firstDay)));
      return { rows: written, pending: new Map(keys.map((key) => [key.id, usage.pending(key.id, now)])) };
    });
    const series: UsageSeries = { hours: new Array(hoursBack).fill(0), days: new Array(options.usage.keepDays).fill(0), firstHour: new Date(firstHour), firstDay: new Date(firstDay) };
    const thisHour = new Map<number, number>();
    const add = (at: number, requests: number) => {
      const hour = Math.floor((at - firstHour) / 3_600_000);
      const day = Math.floor((at - firstDay) / 86_400_000);
      if (hour >= 0 && hour < series.hours.length) series.hours[hour]! += requests;
      if (day >= 0 && day < series.days.length) series.days[day]! += requests;
    };
    for (const row of rows) {
      add(row.hour.getTime(), row.requests);
      if (row.hour.getTime() === hourOf(now) * 1000) thisHour.set(row.keyId, (thisHour.get(row.keyId) ?? 0) + row.requests);
    }
    // What this gateway counted and has not written yet, so that a call shows at once here.
    for (const key of keys) {
      const counted = pending.get(key.id) ?? 0;
      if (!counted) continue;
      add(now, counted);
      thisHour.set(key.id, (thisHour.get(key.id) ?? 0) + counted);
    }
    const query = visit.exchange.query;
    const notice = query.has('revoked') ? `Key ${query.get('revoked')} is revoked: it no longer works.` : undefined;
    const main = profile(
      base,
      visit.session!.csrfToken,
      {
        email: account.email ?? account.name,
        keys: keys.map((key) => ({ ...key, thisHour: thisHour.get(key.id) ?? 0 })),
        created: extra.created,
        usage: series,
        icons,
        maxKeys: options.maxKeysPerAccount,
        usageDays: options.usage.keepDays,
      },
      { error: extra.error, notice },
    );
    return html(status, 'Your account', main, visit);
  }

  async function createKey(visit: Visit, form: URLSearchParams): Promise<GatewayResponse> {
    const account = visit.session!.account!;
    const name = (form.get('name') ?? '').trim();
    if (!name || name.length > 100) return profilePage(visit, 400, { error: 'Give the key a name of 1 to 100 characters.' });
    const client = await prisma();
    if ((await listAccountKeys(client, account.id)).length >= options.maxKeysPerAccount) {
      return profilePage(visit, 400, { error: `An account holds at most ${options.maxKeysPerAccount} keys: revoke one first.` });
    }
    const created = await createKeyOf(client, account, { hourlyLimit: options.keyHourlyLimit, name });
    return profilePage(visit, 201, { created: { key: created.key, name } });
  }

  async function revokeKey(visit: Visit, publicId: string): Promise<GatewayResponse> {
    const revoked = await revokeAccountKey(await prisma(), visit.session!.account!.id, publicId);
    if (!revoked) return profilePage(visit, 404, { error: `You have no key ${publicId} in use.` });
    services.keyRevocations.announce(publicId);
    return redirect(`${base}?revoked=${publicId}`);
  }

  async function signOut(visit: Visit, everywhere: boolean): Promise<GatewayResponse> {
    if (everywhere && visit.session!.accountId !== null) await sessions.deleteAccount(visit.session!.accountId);
    else await sessions.delete(visit.session!.id);
    return redirect(`${base}/sign-in${everywhere ? '?ended=1' : ''}`, cookie(visit, '', 0));
  }

  async function asset(exchange: Exchange, name: string): Promise<GatewayResponse> {
    const refused = methodNotAllowed(exchange, READ_METHODS);
    if (refused) return refused;
    let body = assetCache.get(name);
    if (!body) {
      body = await readFile(join(SITE, name.slice(1)));
      assetCache.set(name, body);
    }
    return { status: 200, body, headers: { 'content-type': ASSETS[name]!, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' } };
  }

  // ---- routing ----

  const POSTS = new Set(['/sign-in', '/sign-up', '/keys', '/sign-out', '/sign-out-everywhere']);
  const GETS = new Set(['/', '/sign-in', '/sign-up']);

  async function handle(exchange: Exchange): Promise<GatewayResponse> {
    const sub = exchange.path.slice(base.length) || '/';
    if (ASSETS[sub]) return asset(exchange, sub);
    const revoke = /^\/keys\/([^/]+)\/revoke$/.exec(sub);
    const callback = provider !== undefined && sub === provider.redirectPath;
    const postable = POSTS.has(sub) || revoke !== null || (provider !== undefined && sub === '/sign-in/oidc');
    const readable = GETS.has(sub) || callback;
    if (!postable && !readable) return errorResponse(404, `No page at ${exchange.path}`);
    const refused = methodNotAllowed(exchange, [...(readable ? READ_METHODS : []), ...(postable ? ['POST'] : [])]);
    if (refused) return refused;
    const isPost = exchange.method === 'POST';

    const https = options.secureCookies === 'always' || (options.secureCookies === 'auto' && cameOverHttps(exchange, services.trustedProxies));
    const cookieName = https ? '__Host-icon_portal' : 'icon_portal';
    const token = cookieValue(exchange, cookieName);
    const visit: Visit = { exchange, https, cookieName, session: token ? await sessions.find(token) : null };

    if (!isPost) {
      if (sub === '/sign-in') return signInPage(visit);
      if (sub === '/sign-up') return signUpPage(visit);
      if (callback) return finishProviderSignIn(visit);
      return visit.session?.account ? profilePage(visit) : redirect(`${base}/sign-in`);
    }
    const form = await readForm(exchange);
    if (!(form instanceof URLSearchParams)) return form;
    if (!genuine(visit, form)) return forbidden(visit);
    if (sub === '/sign-in') return signIn(visit, form);
    if (sub === '/sign-up') return signUpSubmit(visit, form);
    if (sub === '/sign-in/oidc') return visit.session?.account ? redirect(base) : beginProviderSignIn(visit);
    if (!visit.session?.account) return redirect(`${base}/sign-in`);
    if (sub === '/keys') return createKey(visit, form);
    if (revoke) return PUBLIC_ID.test(revoke[1]!) ? revokeKey(visit, revoke[1]!) : errorResponse(404, `No page at ${exchange.path}`);
    return signOut(visit, sub === '/sign-out-everywhere');
  }

  return {
    name: 'account-portal',
    stages: {
      route(exchange) {
        const { path } = exchange;
        if (path !== base && !path.startsWith(`${base}/`)) return undefined;
        exchange.destination = { kind: 'document', route: base };
        return handle(exchange);
      },
    },
    onComplete(exchange) {
      const key = exchange.caller?.key;
      if (key && options.usage.enabled) usage.count(key.keyId);
    },
    async start() {
      await dummy();
    },
    close: () => usage.close(),
  };
};

/** Constant-time comparison of two tokens. */
function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
