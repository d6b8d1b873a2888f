// The pages' weight and load times in Debian's chromium: bytes transferred (as the network saw
// them, gzip included), resources, DOMContentLoaded, load and first paint, from a cold cache
// and then twice warm; and the explorer's time from a typed search to a grid of loaded images.
// Usage: npx tsx bench/page-weight.ts [gateway URL, default http://localhost:4000] (a running
// gateway; the key from .data/demo-api-key.txt, or API_KEY).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../lib/project-root.ts';
import { launchBrowser } from '../test/helpers/browser.ts';

const url = process.argv[2] ?? 'http://localhost:4000';
const key = process.env.API_KEY ?? readFileSync(join(PROJECT_ROOT, '.data', 'demo-api-key.txt'), 'utf8').trim();
const browser = await launchBrowser();
for (const path of ['/', '/docs', '/graphql']) {
  for (const round of ['cold', 'warm', 'warm']) {
    const { page } = await browser.page();
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    if (round === 'cold') await cdp.send('Network.clearBrowserCache');
    let transferBytes = 0;
    let resources = 0;
    cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
      transferBytes += event.encodedDataLength;
      resources++;
    });
    await page.goto(`${url}${path}`, { waitUntil: 'load' });
    const timing = await page.evaluate(() => {
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      return { domContentLoadedMs: Math.round(navigation.domContentLoadedEventEnd), loadMs: Math.round(navigation.loadEventEnd), firstPaintMs: paint ? Math.round(paint.startTime) : null };
    });
    console.log(JSON.stringify({ path, round, transferBytes, resources, ...timing }));
    await page.close();
  }
}
const { page } = await browser.page();
await page.goto(`${url}/`);
await page.getByLabel('API key').fill(key);
await page.getByRole('button', { name: 'Use key' }).click();
await page.locator('.tile').first().waitFor();
const typed = performance.now();
await page.getByLabel('Search', { exact: true }).fill('arrow');
await page.waitForFunction(() => {
  const images = [...document.querySelectorAll<HTMLImageElement>('.tile img[src]')];
  return /page 1 of/.test(document.querySelector('#status')?.textContent ?? '') && images.length > 0 && images.every((image) => image.complete);
});
console.log(JSON.stringify({ explorer: 'search "arrow" typed to a grid of loaded images (the 250 ms pause included)', ms: Math.round(performance.now() - typed) }));
await browser.close();
