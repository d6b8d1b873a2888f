// Sign-in to the account portal with OpenID Connect against a local provider (oidc-provider on
// 127.0.0.1, started here), over real HTTP: a full sign-in makes (then finds) the account of the
// verified email and rotates the session; a callback whose state, issuer or nonce is not the
// flow's is refused, as is one from a browser that did not start the flow, and an email the
// provider has not verified.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';
import { signInAtProvider, startTestProvider, type TestProvider } from '../helpers/oidc-provider.ts';
import { Visitor } from '../helpers/portal-visitor.ts';

const skip = await postgresUnavailable();

describe.skipIf(skip)('sign-in to the account portal with OpenID Connect', { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let provider: TestProvider;
  let gateway: RunningGateway;
  let configDir: string;

  beforeAll(async () => {
    database = await createCatalogueCopy('postgres');
    provider = await startTestProvider({
      ada: { email: 'Ada@Example.com', email_verified: true },
      eve: { email: 'eve@example.com', email_verified: false },
    });
    const portal = `oidc: { issuer: "${provider.issuer}", clientId: ${provider.clientId}, buttonLabel: Sign in with Example SSO }\n            usage:`;
    configDir = await mkdtemp(join(tmpdir(), 'portal-oidc-'));
    const config = await readFile(join(PROJECT_ROOT, '.meshrc.yaml'), 'utf8');
    await writeFile(join(configDir, '.meshrc.yaml'), config.replace('            usage: {', `            ${portal} {`));
    const env = { ...process.env, REDIS_URL: '', PORTAL_OIDC_CLIENT_SECRET: provider.clientSecret };
    gateway = await startGatewayInProcess(database.db, { dir: configDir, env });
    // The client may come back to the gateway only, whose port is known now.
    provider.serve(`${gateway.url}/account/oidc/callback`);
  });
  afterAll(async () => {
    await gateway?.close();
    await provider?.close();
    await database?.drop();
    if (configDir) await rm(configDir, { recursive: true, force: true });
  });

  /** A visitor who pressed the provider's button on the sign-in page: the provider's address it was sent to. */
  async function begin(visitor: Visitor): Promise<string> {
    const page = await (await visitor.get('/account/sign-in')).text();
    expect(page).toContain('<button type="submit">Sign in with Example SSO</button>');
    const response = await visitor.post('/account/sign-in/oidc', { csrf: await visitor.token('/account/sign-in') });
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    expect(location.startsWith(`${provider.issuer}/`)).toBe(true);
    return location;
  }

  const callbackPath = (url: URL) => `${url.pathname}${url.search}`;

  it('signs in with a verified email: a new account, a rotated session, the same account the next time', async () => {
    const visitor = new Visitor(gateway.url);
    const authorization = new URL(await begin(visitor));
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    const before = visitor.cookie;
    const callback = await signInAtProvider(authorization.href, 'ada');
    expect(callback.pathname).toBe('/account/oidc/callback');
    const done = await visitor.get(callbackPath(callback));
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/account');
    expect(visitor.cookie).not.toBe(before);
    const profile = await visitor.get('/account');
    expect(profile.status).toBe(200);
    expect(await profile.text()).toContain('ada@example.com');
    // The cookie from before sign-in is signed in to nothing.
    const planted = new Visitor(gateway.url);
    planted.cookie = before;
    expect((await planted.get('/account')).headers.get('location')).toBe('/account/sign-in');
    // The callback works once.
    const replay = await visitor.get(callbackPath(callback));
    expect(replay.status).toBe(400);

    const again = new Visitor(gateway.url);
    const second = await signInAtProvider(await begin(again), 'ada');
    expect((await again.get(callbackPath(second))).status).toBe(303);
    expect(await database.db.prisma.accountLogin.count({ where: { email: 'ada@example.com' } })).toBe(1);
  });

  it('refuses a callback whose state is not the flow’s', async () => {
    const visitor = new Visitor(gateway.url);
    const callback = await signInAtProvider(await begin(visitor), 'ada');
    callback.searchParams.set('state', 'not-the-state-of-this-flow');
    const refused = await visitor.get(callbackPath(callback));
    expect(refused.status).toBe(401);
    expect((await visitor.get('/account')).status).toBe(303);
  });

  it('refuses a callback from a browser that did not start the flow', async () => {
    const callback = await signInAtProvider(await begin(new Visitor(gateway.url)), 'ada');
    const other = new Visitor(gateway.url);
    await other.get('/account/sign-in');
    expect((await other.get(callbackPath(callback))).status).toBe(400);
    expect((await other.get('/account')).status).toBe(303);
  });

  it('refuses a callback that names another issuer (a mix-up)', async () => {
    const visitor = new Visitor(gateway.url);
    const callback = await signInAtProvider(await begin(visitor), 'ada');
    expect(callback.searchParams.get('iss')).toBe(provider.issuer);
    callback.searchParams.set('iss', 'http://127.0.0.1:1');
    expect((await visitor.get(callbackPath(callback))).status).toBe(401);
    expect((await visitor.get('/account')).status).toBe(303);
  });

  it('refuses an ID token whose nonce is not the flow’s', async () => {
    const visitor = new Visitor(gateway.url);
    const authorization = new URL(await begin(visitor));
    authorization.searchParams.set('nonce', 'a-nonce-this-flow-never-made');
    const callback = await signInAtProvider(authorization.href, 'ada');
    expect((await visitor.get(callbackPath(callback))).status).toBe(401);
    expect((await visitor.get('/account')).status).toBe(303);
  });

  it('refuses an email the provider has not verified', async () => {
    const visitor = new Visitor(gateway.url);
    const callback = await signInAtProvider(await begin(visitor), 'eve');
    const refused = await visitor.get(callbackPath(callback));
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('has not verified your email address');
    expect((await visitor.get('/account')).status).toBe(303);
    expect(await database.db.prisma.accountLogin.count({ where: { email: 'eve@example.com' } })).toBe(0);
  });
});
