// The account portal's security properties over real HTTP against a gateway on PostgreSQL, each
// a test that fails on a portal without the property: a cross-origin form post is refused even
// with a valid token, a post without the token is refused, the session cookie from before
// sign-in is not signed in after it, repeated wrong passwords are throttled, an unknown email
// and a wrong password get the same answer, a key revoked on the portal gets 401 on its very
// next call, an API key reaches nothing of the portal, and the CLI's invitations and disabling.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { runCli } from '../../cli/commands.ts';
import { applyKeyUsageBatch } from '../../prisma/accounts/key-usage.ts';
import { grantIcons } from '../../prisma/accounts/ownership.ts';
import { createCatalogueCopy, postgresUnavailable, type TestDatabase } from '../helpers/databases.ts';
import { withConfig } from '../helpers/config.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';
import { Visitor } from '../helpers/portal-visitor.ts';

const skip = await postgresUnavailable();

async function cli(env: Record<string, string>, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const saved = process.env.DATABASE_URL;
  process.env.DATABASE_URL = env.DATABASE_URL;
  try {
    const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line), isTTY: false, stderr: undefined });
    return { code, out, err: err.join('\n') };
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  }
}

const PASSWORD = 'correct horse battery';

describe.skipIf(skip)('the account portal', () => {
  let database: TestDatabase;
  let gateway: RunningGateway;
  let url: string;
  let configDir: string | undefined;

  beforeAll(async () => {
    delete process.env.REDIS_URL;
    database = await createCatalogueCopy('postgres');
    // More sign-ups from one address than the default allows: every test signs up from 127.0.0.1.
    configDir = await mkdtemp(join(tmpdir(), 'portal-config-'));
    const config = await readFile(join(PROJECT_ROOT, '.meshrc.yaml'), 'utf8');
    await writeFile(join(configDir, '.meshrc.yaml'), config.replace('signUpsPerAddress: 10', 'signUpsPerAddress: 100'));
    gateway = await startGatewayInProcess(database.db, { dir: configDir });
    url = gateway.url;
  });
  afterAll(async () => {
    await gateway?.close();
    await database?.drop();
    if (configDir) await rm(configDir, { recursive: true, force: true });
  });

  const icons = (key: string) => fetch(`${url}/icons?per_page=1`, { headers: { 'x-api-key': key } });

  it('serves labelled forms with HttpOnly SameSite=Lax cookies (not Secure over plain HTTP) and strict headers', async () => {
    const visitor = new Visitor(url);
    const response = await visitor.get('/account/sign-in');
    expect(response.status).toBe(200);
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^icon_portal=[A-Za-z0-9_-]{43}; Path=\/account; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('<button type="submit">Sign in</button>');
    expect((await visitor.get('/account')).headers.get('location')).toBe('/account/sign-in');
    // No trusted proxy here: a client's own X-Forwarded-Proto does not make the cookie Secure.
    const spoofed = await fetch(`${url}/account/sign-in`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.headers.get('set-cookie')).toMatch(/^icon_portal=.*SameSite=Lax$/);
  });

  it('rotates the session at sign-in: the cookie from before it is not signed in', async () => {
    const visitor = new Visitor(url);
    expect((await visitor.signUp('rotate@example.com', PASSWORD)).headers.get('location')).toBe('/account/sign-in?created=1');
    await visitor.token('/account/sign-in');
    const before = visitor.cookie!;
    const signedIn = await visitor.signIn('rotate@example.com', PASSWORD);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/account');
    expect(visitor.cookie).toBeDefined();
    expect(visitor.cookie).not.toBe(before);
    const mine = await visitor.get('/account');
    expect(mine.status).toBe(200);
    expect(await mine.text()).toContain('rotate@example.com');
    // The pre-sign-in cookie (a fixation attacker's) opens nothing.
    const planted = await fetch(`${url}/account`, { headers: { cookie: before }, redirect: 'manual' });
    expect(planted.status).toBe(303);
    expect(planted.headers.get('location')).toBe('/account/sign-in');
  });

  it('refuses a form posted from another origin, even with a valid token, and a post without the token', async () => {
    const visitor = new Visitor(url);
    await visitor.signUp('csrf@example.com', PASSWORD);
    await visitor.signIn('csrf@example.com', PASSWORD);
    const csrf = await visitor.token('/account');
    const keysOf = () => database.db.prisma.apiKey.count({ where: { account: { name: 'csrf@example.com' } } });

    const crossSite = await visitor.post('/account/keys', { csrf, name: 'planted' }, { origin: 'http://evil.example' });
    expect(crossSite.status).toBe(403);
    const noOrigin = await visitor.post('/account/keys', { csrf, name: 'planted' }, { referer: 'http://evil.example/page' });
    expect(noOrigin.status).toBe(403);
    const noToken = await visitor.post('/account/keys', { name: 'planted' });
    expect(noToken.status).toBe(403);
    // One character changed, whatever the last one was: a token that merely looks like the session's.
    const forged = `${csrf.slice(0, -1)}${csrf.endsWith('A') ? 'B' : 'A'}`;
    expect(forged).not.toBe(csrf);
    const wrongToken = await visitor.post('/account/keys', { csrf: forged, name: 'planted' });
    expect(wrongToken.status).toBe(403);
    expect(await keysOf()).toBe(0);
    // The same form from the page's own origin goes through.
    expect((await visitor.post('/account/keys', { csrf, name: 'mine' })).status).toBe(201);
    expect(await keysOf()).toBe(1);
    // A cross-origin sign-in (login CSRF) is refused too.
    const other = new Visitor(url);
    const loginCsrf = await other.post('/account/sign-in', { csrf: await other.token('/account/sign-in'), email: 'csrf@example.com', password: PASSWORD }, { origin: 'http://evil.example' });
    expect(loginCsrf.status).toBe(403);
  });

  it('answers an unknown email exactly as a wrong password', async () => {
    const visitor = new Visitor(url);
    await visitor.signUp('known@example.com', PASSWORD);
    const csrf = await visitor.token('/account/sign-in');
    const wrongPassword = await visitor.post('/account/sign-in', { csrf, email: 'known@example.com', password: 'not the password' });
    const unknownEmail = await visitor.post('/account/sign-in', { csrf, email: 'nobody@example.com', password: 'not the password' });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(wrongPassword.status);
    expect(unknownEmail.headers.get('set-cookie')).toBe(wrongPassword.headers.get('set-cookie'));
    const body = await wrongPassword.text();
    expect(body).toContain('The email or the password is not right.');
    expect(await unknownEmail.text()).toBe(body);
  });

  it('throttles repeated wrong passwords per email: then even the right one is refused until the window ends', async () => {
    const visitor = new Visitor(url);
    await visitor.signUp('guessed@example.com', PASSWORD);
    const csrf = await visitor.token('/account/sign-in');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      statuses.push((await visitor.post('/account/sign-in', { csrf, email: 'guessed@example.com', password: `guess number ${attempt}` })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const throttled = await visitor.post('/account/sign-in', { csrf, email: 'guessed@example.com', password: PASSWORD });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(visitor.cookie).toBeDefined();
    expect((await visitor.get('/account')).status).toBe(303); // still not signed in
    // Another email from this address is not locked by it.
    await visitor.signUp('neighbour@example.com', PASSWORD);
    expect((await visitor.signIn('neighbour@example.com', PASSWORD)).status).toBe(303);
  });

  it('revokes a key at once: its next call gets 401', async () => {
    const visitor = new Visitor(url);
    await visitor.signUp('revoke@example.com', PASSWORD);
    await visitor.signIn('revoke@example.com', PASSWORD);
    const key = await visitor.createKey('website');
    expect((await icons(key)).status).toBe(200); // the gateway now holds the key's record (keyCacheSeconds)
    const publicId = key.split('_')[1]!;
    const page = await (await visitor.get('/account')).text();
    expect(page).toContain(`<code>${publicId}</code>`);
    expect(page).toContain('website');
    expect(page).not.toContain(key); // shown once only
    const revoked = await visitor.post(`/account/keys/${publicId}/revoke`, { csrf: await visitor.token('/account') });
    expect(revoked.status).toBe(303);
    expect((await icons(key)).status).toBe(401);
  });

  it('cannot revoke another account’s key', async () => {
    const owner = new Visitor(url);
    await owner.signUp('owner@example.com', PASSWORD);
    await owner.signIn('owner@example.com', PASSWORD);
    const key = await owner.createKey('owned');
    const intruder = new Visitor(url);
    await intruder.signUp('intruder@example.com', PASSWORD);
    await intruder.signIn('intruder@example.com', PASSWORD);
    const refused = await intruder.post(`/account/keys/${key.split('_')[1]}/revoke`, { csrf: await intruder.token('/account') });
    expect(refused.status).toBe(404);
    expect((await icons(key)).status).toBe(200);
  });

  it('reaches nothing of the portal with an API key', async () => {
    const visitor = new Visitor(url);
    await visitor.signUp('keyholder@example.com', PASSWORD);
    await visitor.signIn('keyholder@example.com', PASSWORD);
    const key = await visitor.createKey('api');
    const withKey = (init: RequestInit = {}) => ({ ...init, headers: { 'x-api-key': key, authorization: `Bearer ${key}`, origin: url, ...(init.headers as object) }, redirect: 'manual' as const });
    const profile = await fetch(`${url}/account`, withKey());
    expect(profile.status).toBe(303);
    const post = await fetch(`${url}/account/keys`, withKey({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=x' }));
    expect(post.status).toBe(403);
    expect(await database.db.prisma.apiKey.count({ where: { account: { name: 'keyholder@example.com' } } })).toBe(1);
  });

  it('ends every session with "End all sessions"', async () => {
    const first = new Visitor(url);
    await first.signUp('everywhere@example.com', PASSWORD);
    await first.signIn('everywhere@example.com', PASSWORD);
    const second = new Visitor(url);
    await second.signIn('everywhere@example.com', PASSWORD);
    expect((await second.get('/account')).status).toBe(200);
    const ended = await first.post('/account/sign-out-everywhere', { csrf: await first.token('/account') });
    expect(ended.headers.get('location')).toBe('/account/sign-in?ended=1');
    expect((await second.get('/account')).status).toBe(303);
  });

  it('counts requests per key and hour, shown on the profile page', async () => {
    const visitor = new Visitor(url);
    await visitor.signUp('usage@example.com', PASSWORD);
    await visitor.signIn('usage@example.com', PASSWORD);
    const key = await visitor.createKey('counted');
    for (let i = 0; i < 3; i++) expect((await icons(key)).status).toBe(200);
    await expect
      .poll(async () => Number(/id="usage-hours"[^>]*data-total="(\d+)"/.exec(await (await visitor.get('/account')).text())?.[1]))
      .toBe(3);
    // Written by the batches within flushSeconds (5), exactly once.
    const written = () => database.db.prisma.apiKeyUsageHour.aggregate({ _sum: { requests: true }, where: { key: { publicId: key.split('_')[1] } } });
    await expect.poll(async () => (await written())._sum.requests, { timeout: 20_000 }).toBe(3);
  });

  it('applies a key-usage batch once, however often it is sent', async () => {
    const { prisma } = database.db;
    const account = await prisma.account.create({ data: { name: 'batch-account' } });
    const key = await prisma.apiKey.create({ data: { publicId: 'batchkey01', secretHash: 'x', accountId: account.id } });
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600;
    const batch = { id: 'batch-1', entries: [{ keyId: key.id, hour, count: 4 }] };
    expect(await applyKeyUsageBatch(prisma, batch)).toBe(true);
    expect(await applyKeyUsageBatch(prisma, batch)).toBe(false);
    expect(await applyKeyUsageBatch(prisma, { id: 'batch-2', entries: [{ keyId: key.id, hour, count: 2 }] })).toBe(true);
    expect((await prisma.apiKeyUsageHour.findUniqueOrThrow({ where: { keyId_hour: { keyId: key.id, hour: new Date(hour * 1000) } } })).requests).toBe(6);
  });

  it('accounts disable: the account’s keys stop working and it cannot sign in', async () => {
    const visitor = new Visitor(url);
    await visitor.signUp('disabled@example.com', PASSWORD);
    await visitor.signIn('disabled@example.com', PASSWORD);
    const key = await visitor.createKey('soon gone');
    const result = await cli({ DATABASE_URL: database.url! }, 'accounts', 'disable', '--account', 'disabled@example.com');
    expect(result.err).toBe('');
    expect(result.out.join('\n')).toContain('1 key(s) revoked');
    expect((await visitor.get('/account')).status).toBe(303);
    expect((await new Visitor(url).signIn('disabled@example.com', PASSWORD)).status).toBe(401);
    // Other gateways drop the key's record within keyCacheSeconds; this one may hold it as long.
    await expect.poll(async () => (await icons(key)).status, { timeout: 15_000, interval: 500 }).toBe(401);
  });

  it('lists the premium icons the account owns, with files at signed addresses that need no key', async () => {
    const visitor = new Visitor(url);
    await visitor.signUp('collector@example.com', PASSWORD);
    await visitor.signIn('collector@example.com', PASSWORD);
    expect(await (await visitor.get('/account')).text()).toContain('<h2 id="icons-title">Premium icons you own</h2>\n<p>None yet.</p>');
    const icon = await database.db.prisma.icon.findFirstOrThrow({ where: { premium: true, published: true }, orderBy: { id: 'asc' } });
    await grantIcons(database.db.prisma, 'collector@example.com', [icon.slug]);
    const html = await (await visitor.get('/account')).text();
    expect(html).toContain(`<span>${icon.name}</span>`);
    const svgUrl = /<a href="([^"]+)" download="[^"]+\.svg">/.exec(html)![1]!.replaceAll('&#38;', '&');
    const pngUrl = /<a href="([^"]+)" download="[^"]+\.png">/.exec(html)![1]!.replaceAll('&#38;', '&');
    const svg = await fetch(`${url}${svgUrl}`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect((await fetch(`${url}${pngUrl}`)).headers.get('content-type')).toBe('image/png');
    // Without the signature, the premium file is refused to a caller without an owner's key.
    expect((await fetch(`${url}${svgUrl.split('?')[0]}`)).status).toBe(403);
  });

  it('with signUps: invite, signs up only with an invitation made for that email', async () => {
    await withConfig(
      (config) => config.replace('signUps: open', 'signUps: invite').replace('signUpsPerAddress: 10', 'signUpsPerAddress: 100'),
      async (dir) => {
        const invited = await startGatewayInProcess(database.db, { dir });
        try {
          const visitor = new Visitor(invited.url);
          const without = await visitor.signUp('guest@example.com', PASSWORD);
          expect(without.status).toBe(400);
          const made = await cli({ DATABASE_URL: database.url! }, 'accounts', 'invite', '--email', 'Guest@Example.com');
          expect(made.code).toBe(0);
          const code = made.out.at(-1)!;
          const wrongEmail = await visitor.signUp('other@example.com', PASSWORD, { invitation: code });
          expect(wrongEmail.status).toBe(400);
          const ok = await visitor.signUp('guest@example.com', PASSWORD, { invitation: code });
          expect(ok.status).toBe(303);
          const again = await new Visitor(invited.url).signUp('guest@example.com', PASSWORD, { invitation: code });
          expect(again.status).toBe(400);
          expect((await visitor.signIn('guest@example.com', PASSWORD)).status).toBe(303);
        } finally {
          await invited.close();
        }
      },
    );
  });
});

describe.skipIf(skip)('behind a trusted TLS-terminating proxy', () => {
  it('sets a Secure __Host- cookie when the proxy says https, and accepts https form posts of this host', async () => {
    const database = await createCatalogueCopy('postgres');
    try {
      await withConfig(
        (config) => config.replace('trustedProxies: 0', 'trustedProxies: 1'),
        async (dir) => {
          const gateway = await startGatewayInProcess(database.db, { dir });
          try {
            const proxied = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' };
            const page = await fetch(`${gateway.url}/account/sign-in`, { headers: proxied });
            const cookie = page.headers.get('set-cookie')!;
            expect(cookie).toMatch(/^__Host-icon_portal=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
            const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
            const post = (origin: string) =>
              fetch(`${gateway.url}/account/sign-in`, {
                method: 'POST',
                headers: { ...proxied, origin, cookie: cookie.split(';')[0]!, 'content-type': 'application/x-www-form-urlencoded' },
                body: new URLSearchParams({ csrf, email: 'nobody@example.com', password: 'whatever it is' }).toString(),
                redirect: 'manual',
              });
            expect((await post(gateway.url.replace('http:', 'https:'))).status).toBe(401); // a sign-in that was heard (and failed)
            expect((await post(gateway.url)).status).toBe(403); // http: not this page's origin
          } finally {
            await gateway.close();
          }
        },
      );
    } finally {
      await database.drop();
    }
  });
});

describe.skipIf(skip)('without the account-portal entry', () => {
  it('serves no portal route at all', async () => {
    const database = await createCatalogueCopy('postgres');
    try {
      await withConfig(
        (config) => config.replace(/\n {8}- account-portal:\n(?: {12}.*\n)+/, '\n'),
        async (dir) => {
          const gateway = await startGatewayInProcess(database.db, { dir });
          try {
            for (const path of ['/account', '/account/sign-in', '/account/portal.js']) {
              const response = await fetch(`${gateway.url}${path}`, { redirect: 'manual' });
              expect(response.status).toBe(404);
            }
          } finally {
            await gateway.close();
          }
        },
      );
    } finally {
      await database.drop();
    }
  });
});
