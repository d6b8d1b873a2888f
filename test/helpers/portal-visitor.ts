// A browser's worth of state for the account portal's tests over HTTP: its cookie, its forms.
import { expect } from 'vitest';

/** A browser's worth of state: the portal's cookie, sent back as a browser would. */
export class Visitor {
  cookie: string | undefined;
  constructor(private readonly url: string) {}

  private keep(response: Response): Response {
    const set = response.headers.get('set-cookie');
    if (set) {
      const pair = set.split(';')[0]!;
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    return response;
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.keep(await fetch(`${this.url}${path}`, { headers: { ...(this.cookie && { cookie: this.cookie }), ...headers }, redirect: 'manual' }));
  }

  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = { origin: this.url }): Promise<Response> {
    return this.keep(
      await fetch(`${this.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(this.cookie && { cookie: this.cookie }), ...headers },
        body: new URLSearchParams(fields).toString(),
        redirect: 'manual',
      }),
    );
  }

  /** The CSRF token of the page at `path`. */
  async token(path: string): Promise<string> {
    const html = await (await this.get(path)).text();
    const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
    if (!token) throw new Error(`no CSRF token on ${path}:\n${html}`);
    return token;
  }

  async signUp(email: string, password: string, extra: Record<string, string> = {}): Promise<Response> {
    return this.post('/account/sign-up', { csrf: await this.token('/account/sign-up'), email, password, ...extra });
  }

  async signIn(email: string, password: string): Promise<Response> {
    return this.post('/account/sign-in', { csrf: await this.token('/account/sign-in'), email, password });
  }

  /** A new key named `name`, as the profile page shows it once. */
  async createKey(name: string): Promise<string> {
    const response = await this.post('/account/keys', { csrf: await this.token('/account'), name });
    expect(response.status).toBe(201);
    return /<code id="new-key">([^<]+)<\/code>/.exec(await response.text())![1]!;
  }
}
