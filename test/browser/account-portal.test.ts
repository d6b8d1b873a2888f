// The account portal in a real browser (Debian's chromium driven by playwright-core), as a new
// user walks it, by the fields' labels and the buttons' names: sign up, sign in (with the
// keyboard alone), create a key and copy it, call /icons with it from the page, see the call in
// the usage chart, revoke the key and see the next call get 401, sign out. No request leaves
// the gateway and no console error is allowed. Screenshots go to test/output/screenshots/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailable, launchBrowser, type Browser } from '../helpers/browser.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

const skip = browserUnavailable();

describe.skipIf(skip)('the account portal in a browser', () => {
  let database: TestDatabase;
  let gateway: RunningGateway;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    delete process.env.REDIS_URL;
    database = await createCatalogueCopy('pglite');
    gateway = await startGatewayInProcess(database.db);
    origin = gateway.url.replace('127.0.0.1', 'localhost');
    browser = await launchBrowser();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await database?.drop();
  });

  it('signs up, signs in, creates a key, calls /icons with it, sees the call in the chart, revokes it and gets 401', async () => {
    const { page, problems } = await browser.page();
    const email = 'journey@example.com';
    const password = 'a long enough password';

    await page.goto(`${origin}/account`);
    expect(new URL(page.url()).pathname).toBe('/account/sign-in');
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Your account is ready: sign in.').waitFor();

    // Signed in with the keyboard alone.
    await page.getByLabel('Email').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(password);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Sign in');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');

    await page.getByLabel('Key name').fill('journey site');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.locator('#new-key');
    await shown.waitFor();
    const key = (await shown.textContent())!;
    expect(key).toMatch(/^ick_[a-z0-9]{10}_[A-Za-z0-9]{32}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await browser.screenshot(page, 'account-new-key');

    // The call from the page: its "Try a key" form fetches /icons with X-API-Key.
    await page.getByRole('button', { name: 'Call /icons' }).click();
    await expect.poll(() => page.locator('#try-result').getAttribute('data-status')).toBe('200');

    // The call shows in the usage chart and in the key's count for this hour.
    await page.goto(`${origin}/account`);
    const chart = page.getByRole('img', { name: /Requests per hour, last 30 days/ });
    expect(Number(await chart.getAttribute('data-total'))).toBe(1);
    expect(await page.getByRole('img', { name: /Requests per day/ }).getAttribute('data-total')).toBe('1');
    expect(await page.getByRole('row', { name: /journey site/ }).textContent()).toContain('1 of 1000');
    expect(await page.content()).not.toContain(key); // shown once only
    await browser.screenshot(page, 'account-profile');

    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText(/is revoked: it no longer works/).waitFor();
    const status = await page.evaluate(async (apiKey) => (await fetch('/icons?per_page=1', { headers: { 'X-API-Key': apiKey }, credentials: 'omit' })).status, key);
    expect(status).toBe(401);
    await page.getByLabel('API key to try').fill(key);
    await page.getByRole('button', { name: 'Call /icons' }).click();
    await expect.poll(() => page.locator('#try-result').getAttribute('data-status')).toBe('401');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goto(`${origin}/account`);
    expect(new URL(page.url()).pathname).toBe('/account/sign-in');
    // The 401 above is the only failed request: the page reports it, the console does not.
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
  });
});
