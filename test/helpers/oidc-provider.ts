// A local OpenID Connect provider for the portal's tests (oidc-provider, on 127.0.0.1 at a port
// of its own), with one static confidential client and a few accounts, and a user who signs in
// there over HTTP through its development login and consent pages.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestAccount {
  email: string;
  email_verified: boolean;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Serves the provider with the client allowed to come back to `redirectUri` (known once the gateway listens). */
  serve(redirectUri: string): void;
  close(): Promise<void>;
}

/** Listens at once (so the issuer is known); answers 503 until `serve`. */
export async function startTestProvider(accounts: Record<string, TestAccount>): Promise<TestProvider> {
  let handler: Parameters<typeof createServer>[1] = (_request, response) => response.writeHead(503).end();
  const server: Server = createServer((request, response) => handler!(request, response));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'icon-portal';
  const clientSecret = 'a-secret-for-the-test-client-only-0123456789';
  return {
    issuer,
    clientId,
    clientSecret,
    serve(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
        claims: { openid: ['sub'], email: ['email', 'email_verified'] },
        findAccount: (_context, id) => {
          const account = accounts[id];
          return account && { accountId: id, claims: () => ({ sub: id, ...account }) };
        },
        cookies: { keys: ['test-provider-cookie-key'] },
      });
      handler = provider.callback();
    },
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

/**
 * A user at the provider: follows `authorizationUrl` through the login (as `login`, any password)
 * and consent pages, with the provider's cookies, until the provider sends the browser to an
 * address outside itself, which it returns (the portal's callback with its query).
 */
export async function signInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const cookies = new Map<string, string>();
  const send = async (url: URL, init: RequestInit = {}) => {
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), ...(cookie && { cookie }) } });
    for (const set of response.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return response;
  };
  let url = new URL(authorizationUrl);
  const provider = url.origin;
  for (let step = 0; step < 20; step++) {
    const response = await send(url);
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      if (url.origin !== provider) return url;
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) throw new Error(`the provider answered ${response.status} at ${url}:\n${page}`);
    // Its development pages: a login form, then a consent form, each posting a `prompt`.
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`no form at ${url}:\n${page}`);
    const fields: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt };
    const posted = await send(new URL(action, url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const next = posted.headers.get('location');
    if (!next) throw new Error(`the provider answered ${posted.status} to the ${prompt} form:\n${await posted.text()}`);
    url = new URL(next, url);
    if (url.origin !== provider) return url;
  }
  throw new Error('the provider never sent the browser back');
}
