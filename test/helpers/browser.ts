// Debian's chromium driven by playwright-core (which downloads no browser of its own). Where
// there is no chromium the browser tests skip, with the reason printed once; under CI=true
// (.ci/run installs chromium) its absence fails the run.
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Without these, chromium's own connections (updates, sync) are refused on a closed network and slow every start. */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Screenshots for a person to look at (gitignored). */
export const SCREENSHOTS = join(PROJECT_ROOT, 'test', 'output', 'screenshots');

/** Why the browser tests cannot run here, or undefined. Throws under CI=true. */
export function browserUnavailable(): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  const reason = `no chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI === 'true') throw new Error(`${reason}: required under CI=true`);
  console.warn(`skipping browser tests: ${reason}`);
  return reason;
}

export interface Browser {
  context: BrowserContext;
  /** A new page that records console errors, failed requests and requests to other hosts than `allowedHosts`. */
  page(allowedHosts?: readonly string[]): Promise<{ page: Page; problems: string[] }>;
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/** A fresh chromium (its own profile); requests to any host but loopback are aborted and reported. */
export async function launchBrowser(): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), 'icon-catalogue-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1200, height: 900 },
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    async page(allowedHosts = ['127.0.0.1', 'localhost']) {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      await page.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.protocol === 'data:' || url.protocol === 'blob:' || allowedHosts.includes(url.hostname)) return route.continue();
        problems.push(`external request: ${url.href}`);
        return route.abort();
      });
      return { page, problems };
    },
    screenshot: async (page, name) => {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
