// The pages in a real browser (Debian's chromium driven by playwright-core): the explorer as a
// person uses it (a key, a search with a typo, the grid of real images, an icon opened, its markup
// copied to the clipboard, premium tiles shown as their public previews, a premium icon locked,
// the keyboard alone), /docs rendering every
// operation and GraphiQL running a query with the key, with no request leaving the gateway and no
// console error. Screenshots go to test/output/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { grantIcons } from '../../prisma/accounts/ownership.ts';
import { browserUnavailable, launchBrowser, type Browser } from '../helpers/browser.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

const skip = browserUnavailable();

describe.skipIf(skip)('the catalogue in a browser', () => {
  let database: TestDatabase;
  let gateway: RunningGateway;
  let browser: Browser;
  let origin: string;
  let key: string;
  let ownerKey: string;
  let premiumSlug: string;

  beforeAll(async () => {
    delete process.env.REDIS_URL;
    process.env.URL_SIGNING_SECRET = 'browser-tests-signing-secret-0123456789';
    database = await createCatalogueCopy('pglite');
    const { prisma } = database.db;
    key = (await createApiKey(prisma, { accountName: 'browser-reader', hourlyLimit: 100_000 })).key;
    ownerKey = (await createApiKey(prisma, { accountName: 'browser-owner', hourlyLimit: 100_000 })).key;
    premiumSlug = (await prisma.icon.findFirstOrThrow({ where: { premium: true, published: true }, orderBy: { id: 'asc' } })).slug;
    await grantIcons(prisma, 'browser-owner', [premiumSlug]);
    gateway = await startGatewayInProcess(database.db);
    // The gateway's default public base URL is http://localhost:<port>: the pages are opened there.
    origin = gateway.url.replace('127.0.0.1', 'localhost');
    browser = await launchBrowser();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await database?.drop();
    delete process.env.URL_SIGNING_SECRET;
  });

  async function api<T>(path: string, apiKey = key): Promise<T> {
    return (await (await fetch(`${gateway.url}${path}`, { headers: { 'x-api-key': apiKey } })).json()) as T;
  }

  /** The explorer with the reader's key pasted and submitted. */
  async function explorerWithKey() {
    const opened = await browser.page();
    await opened.page.goto(`${origin}/`);
    await opened.page.getByLabel('API key').fill(key);
    await opened.page.keyboard.press('Enter');
    return opened;
  }

  it('searches "arow left", shows Arrow Left with its image, opens it and copies its markup', async () => {
    const { page, problems } = await browser.page();
    await page.goto(`${origin}/`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.getByLabel('Search', { exact: true }).fill('arow left');

    const tile = page.locator('.tile', { has: page.getByText('Arrow Left', { exact: true }) }).first();
    await tile.waitFor();
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^\d[\d,]* icons, page 1 of \d+\.$/);
    const slug = (await tile.getAttribute('data-slug'))!;
    const { data: icon } = await api<{ data: { name: string; svg: string; svg_url: string; url: string; license_url: string; tags: { name: string }[] } }>(`/icons/${slug}`);
    const image = tile.locator('img');
    expect(await image.getAttribute('src')).toBe(icon.svg_url);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await browser.screenshot(page, 'explorer-search');

    await tile.click();
    const dialog = page.getByRole('dialog', { name: 'Arrow Left' });
    await dialog.waitFor();
    await dialog.locator('#icon-body').waitFor();
    expect(new URL(page.url()).pathname).toBe(new URL(icon.url).pathname);
    expect(await dialog.getByRole('link', { name: /./ }).first().getAttribute('href')).toBe(icon.license_url);
    for (const tag of icon.tags) await expect.poll(() => dialog.locator('#icon-tags').textContent()).toContain(tag.name);
    const previews = dialog.locator('#previews img');
    expect(await previews.count()).toBe(4);
    await expect.poll(() => previews.evaluateAll((imgs: HTMLImageElement[]) => imgs.map((img) => img.naturalWidth > 0))).toEqual([true, true, true, true]);
    await dialog.getByLabel('Blue').check();
    expect(decodeURIComponent((await previews.first().getAttribute('src'))!)).toContain('#1d4ed8');

    await dialog.getByRole('button', { name: 'Copy SVG' }).click();
    await dialog.getByText('Copied the SVG markup.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(icon.svg);
    await dialog.getByRole('button', { name: 'Copy <img> tag' }).click();
    await dialog.getByText('Copied the <img> tag.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`<img src="${icon.svg_url.replaceAll('&', '&amp;')}" alt="Arrow Left" width="24" height="24">`);
    await browser.screenshot(page, 'explorer-icon');

    // The key was only ever in a header: not in an address, not in the page's markup.
    expect(page.url()).not.toContain(key);
    expect(await page.content()).not.toContain(key.slice(-12));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('filters by category, style, colour and license, and pages through the results', async () => {
    const { page, problems } = await explorerWithKey();
    await expect.poll(() => page.locator('#category option').count()).toBeGreaterThan(1);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const category = await page.locator('#category option').nth(1).getAttribute('value');
    await page.getByLabel('Category').selectOption(category!);
    await page.getByLabel('License').selectOption('free');
    await page.getByLabel('Colour').selectOption('monochrome');
    await expect.poll(() => requests.some((url) => url.includes(`/icons?category=${category}&color=monochrome&license=free&page=1`))).toBe(true);
    await page.getByLabel('Style').selectOption('outline');
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/icons, page 1 of|No icons match/);
    await page.getByLabel('Category').selectOption('');
    await expect.poll(() => page.locator('#page-info').textContent()).toMatch(/^Page 1 of \d+$/);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.locator('#page-info').textContent()).toMatch(/^Page 2 of \d+$/);
    expect(requests.some((url) => url.includes('style=outline') && url.includes('page=2'))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows premium tiles as their public previews, loaded without a key', async () => {
    const { page, problems } = await explorerWithKey();
    const images: { url: string; key: string | undefined }[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'image') images.push({ url: request.url(), key: request.headers()['x-api-key'] });
    });
    await page.getByLabel('License').selectOption('premium');
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/icons, page 1 of/);
    const tile = page.locator('.tile', { has: page.locator('.badge') }).first();
    await tile.waitFor();
    const slug = (await tile.getAttribute('data-slug'))!;
    const { data } = await api<{ data: { preview_url: string; premium: boolean }[] }>(`/icons?slugs=${encodeURIComponent(slug)}`);
    expect(data[0]!.premium).toBe(true);
    const image = tile.locator('img');
    expect(await image.getAttribute('src')).toBe(data[0]!.preview_url);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    expect(await tile.evaluate((link) => link.classList.contains('no-image'))).toBe(false);
    const loaded = images.find((request) => request.url === data[0]!.preview_url);
    expect(loaded).toBeDefined();
    expect(loaded!.key).toBeUndefined();
    await browser.screenshot(page, 'explorer-premium-previews');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('searches as one types: once per pause, aborting the search a newer one replaces', async () => {
    const { page, problems } = await explorerWithKey();
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/icons, page 1 of/);
    const searches: string[] = [];
    const aborted: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/search?')) searches.push(new URL(request.url()).searchParams.get('q')!);
    });
    page.on('requestfailed', (request) => aborted.push(new URL(request.url()).searchParams.get('q') ?? ''));
    // Eleven keystrokes in one moment: one search, for the whole text.
    await page.getByLabel('Search', { exact: true }).evaluate((input: HTMLInputElement) => {
      for (const end of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
        input.value = 'weather sun'.slice(0, end);
        input.dispatchEvent(new Event('input'));
      }
    });
    await expect.poll(() => searches).toEqual(['weather sun']);
    // A slow answer is abandoned when the text changes, and never fills the grid.
    let releaseSlow!: () => void;
    const slowHeld = new Promise<void>((release) => (releaseSlow = release));
    await page.route(/\/search\?q=moon&/, async (route) => {
      await slowHeld;
      await route.continue().catch(() => {});
    });
    await page.getByLabel('Search', { exact: true }).fill('moon');
    await expect.poll(() => searches.at(-1)).toBe('moon');
    await page.getByLabel('Search', { exact: true }).fill('home');
    await expect.poll(() => aborted).toContain('moon');
    await expect.poll(() => page.locator('.tile .name').first().textContent()).toMatch(/home/i);
    releaseSlow();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a premium icon is locked for a non-owner and open for its owner, on its own page', async () => {
    for (const [apiKey, locked] of [
      [key, true],
      [ownerKey, false],
    ] as const) {
      const { page, problems } = await browser.page();
      await page.goto(`${origin}/en/icons/${premiumSlug}`);
      await expect.poll(() => page.locator('#status').textContent()).toBe('Paste your API key to see this icon.');
      await page.getByLabel('API key').fill(apiKey);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      if (locked) {
        await dialog.getByText(/Locked: a premium icon your account does not own/).waitFor();
        expect(await dialog.locator('#icon-body').isHidden()).toBe(true);
        await browser.screenshot(page, 'explorer-premium-locked');
        // The browser logs the API's 403 as a failed resource; nothing else may fail.
        expect(problems.filter((problem) => !/status of 403/.test(problem))).toEqual([]);
      } else {
        await dialog.locator('#icon-body').waitFor();
        expect(await dialog.locator('#icon-markup').inputValue()).toMatch(/^<svg/);
        expect(problems).toEqual([]);
      }
      await page.close();
    }
  });

  it('works from the keyboard alone, with every control labelled', async () => {
    const { page, problems } = await browser.page();
    await page.goto(`${origin}/`);
    const unlabelled = await page.$$eval('input, select, textarea, button', (controls) =>
      controls.filter((control) => !(control as HTMLInputElement).labels?.length && !control.getAttribute('aria-label') && !control.textContent?.trim()).map((control) => control.outerHTML),
    );
    expect(unlabelled).toEqual([]);
    await page.keyboard.press('Tab'); // the skip link
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('key');
    await page.keyboard.type(key);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    await page.keyboard.type('home');
    // Wait for the search's own results: a tile of the list shown before them is replaced with
    // the grid, and Enter on a detached tile opens nothing.
    const { meta } = await api<{ meta: { total: number } }>('/search?q=home');
    await expect.poll(() => page.locator('#status').textContent()).toMatch(new RegExp(`^${meta.total.toLocaleString('en')} icons, page 1 of`));
    // A free icon: a premium one opens to a 403 notice instead of its markup.
    const free = page.locator('.tile', { hasNot: page.locator('.badge') }).first();
    await free.waitFor();
    await free.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.locator('#icon-body').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isHidden()).toBe(true);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('/docs renders every operation of the OpenAPI document, with nothing from a CDN', async () => {
    const { page, problems } = await browser.page();
    await page.goto(`${origin}/docs`);
    await page.locator('.opblock').first().waitFor();
    const operations = await page.locator('.opblock-summary-path').allTextContents();
    expect(operations.map((path) => path.replace(/\u200b/g, '').trim()).sort()).toEqual(expect.arrayContaining(['/categories', '/icons', '/icons/{ref}', '/search']));
    await browser.screenshot(page, 'docs');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('GraphiQL runs a query with the key typed into its headers editor', async () => {
    const { page, problems } = await browser.page();
    await page.goto(`${origin}/graphql`);
    const headersTab = page.getByRole('button', { name: 'Headers' }).or(page.getByText('Headers', { exact: true })).first();
    await headersTab.waitFor({ timeout: 60_000 });
    const headersEditor = page.locator('.graphiql-editor-tool .monaco-editor, .graphiql-editor-tool .CodeMirror').last();
    await headersEditor.waitFor();
    await expect.poll(() => headersEditor.textContent()).toContain('X-API-Key');
    await headersEditor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    // The editor closes brackets and quotes as they are typed and steps over them: typed whole, the text is as written.
    await page.keyboard.type(`{"X-API-Key":"${key}"}`);
    const ran = page.waitForResponse((response) => response.url().endsWith('/graphql') && response.request().method() === 'POST' && response.request().headers()['x-api-key'] === key);
    await page.getByRole('button', { name: /Execute query/ }).click();
    const response = await ran;
    expect(response.status()).toBe(200);
    const result = (await response.json()) as { data: { search: { data: { name: string }[] } } };
    expect(result.data.search.data.length).toBeGreaterThan(0);
    // Monaco writes spaces as no-break spaces and wraps long lines: compared with its whitespace folded.
    await expect.poll(async () => (await page.locator('.graphiql-response').textContent())?.replace(/\s+/g, ' ')).toContain(`"name": "${result.data.search.data[0]!.name}"`);
    await browser.screenshot(page, 'graphiql');
    // GraphiQL asks for the schema as soon as it opens, before a key is typed: those 401s are expected.
    expect(problems.filter((problem) => !/status of 401/.test(problem))).toEqual([]);
    await page.close();
  });
});
