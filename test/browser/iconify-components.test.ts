// Iconify's own component, in a real browser, pointed at the gateway: a page on another origin
// loads `iconify-icon` from its npm package (served by the test, nothing from a CDN), calls
// addAPIProvider('', { resources: [gateway], path: '/iconify/' }) and renders icons of several
// sets, an alias, a premium icon (absent for an anonymous page) and an unknown name; what the
// component drew is compared with the catalogue's markup built by @iconify/utils. A second page
// is a small picker: it searches through /iconify/search, lists a set through /iconify/collection
// and renders what they name.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { getIconData, iconToSVG } from '@iconify/utils';
import type { IconifyJSON } from '@iconify/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserUnavailable, launchBrowser, type Browser } from '../helpers/browser.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

const skip = browserUnavailable();
const require = createRequire(import.meta.url);
const COMPONENT = readFileSync(require.resolve('iconify-icon/dist/iconify-icon.mjs'), 'utf8');

/** The page: the component, the provider, and a helper that renders icons and waits until each has drawn or failed. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>iconify-icon against the gateway</title><body>
<script type="module">
  import { addAPIProvider } from '/iconify-icon.mjs';
  addAPIProvider('', { resources: [new URL(location.href).searchParams.get('api')], path: '/iconify/' });
  window.draw = async (names) => {
    const elements = names.map((name) => {
      const element = document.createElement('iconify-icon');
      element.setAttribute('icon', name);
      document.body.append(element);
      return element;
    });
    const settled = () => elements.every((element) => element.status === 'rendered' || element.status === 'failed');
    for (let waited = 0; !settled() && waited < 20000; waited += 50) await new Promise((next) => setTimeout(next, 50));
    return elements.map((element) => {
      const svg = element.shadowRoot && element.shadowRoot.querySelector('svg');
      return { name: element.getAttribute('icon'), status: element.status, viewBox: svg ? svg.getAttribute('viewBox') : null, inner: svg ? svg.innerHTML : null };
    });
  };
  // The markup a body becomes once the browser has parsed it, to compare drawings without caring how the source wrote its tags.
  window.parsed = (body) => {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.innerHTML = body;
    return svg.innerHTML;
  };
  window.ready = true;
</script>`;

describe.skipIf(skip)('iconify-icon against the gateway', () => {
  let database: TestDatabase;
  let gateway: RunningGateway;
  let browser: Browser;
  let site: Server;
  let siteOrigin: string;
  let premium: string;
  const bodies = new Map<string, { body: string; width: number; height: number }>();

  beforeAll(async () => {
    delete process.env.REDIS_URL;
    database = await createCatalogueCopy('pglite');
    const { prisma } = database.db;
    // Icons without ids (the component makes ids unique, which changes the markup it draws).
    for (const [prefix, name] of [
      ['mdi', 'home'],
      ['mdi', 'account'],
      ['tabler', 'home'],
    ] as const) {
      const icon = await prisma.icon.findFirstOrThrow({ where: { published: true, sourceName: name, set: { prefix } } });
      bodies.set(`${prefix}:${name}`, icon);
    }
    const logo = await prisma.icon.findFirstOrThrow({ where: { published: true, premium: false, set: { prefix: 'logos' }, NOT: { body: { contains: 'id=' } } }, orderBy: { id: 'asc' } });
    bodies.set(`logos:${logo.sourceName}`, logo);
    const premiumIcon = await prisma.icon.findFirstOrThrow({ where: { published: true, premium: true }, include: { set: true }, orderBy: { id: 'asc' } });
    premium = `${premiumIcon.set.prefix}:${premiumIcon.sourceName}`;
    const home = await prisma.icon.findFirstOrThrow({ where: { sourceName: 'home', set: { prefix: 'mdi' } } });
    await prisma.iconAlias.create({ data: { setId: home.setId, name: 'house-mirrored', parent: 'home', iconId: home.id, hFlip: true } });
    gateway = await startGatewayInProcess(database.db);
    site = createServer((req, res) => {
      if (req.url === '/iconify-icon.mjs') return res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(COMPONENT);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    });
    await new Promise<void>((listening) => site.listen(0, '127.0.0.1', listening));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((closed) => site?.close(closed));
    await gateway?.close();
    await database?.drop();
  });

  /** A page of the other origin, the component's provider set to the gateway (on another host name, so every call is cross-origin). */
  async function openPage() {
    const { page, problems } = await browser.page();
    const api = gateway.url.replace('127.0.0.1', 'localhost');
    await page.goto(`${siteOrigin}/?api=${encodeURIComponent(api)}`);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    return { page, problems };
  }

  it('draws icons of several sets and an alias as the catalogue has them; a premium icon and an unknown name fail', async () => {
    const { page, problems } = await openPage();
    const names = [...bodies.keys(), 'mdi:house-mirrored', premium, 'mdi:no-such-icon'];
    const drawn = await page.evaluate((names) => (window as unknown as { draw(names: string[]): Promise<{ name: string; status: string; viewBox: string | null; inner: string | null }[]> }).draw(names), names);
    const byName = new Map(drawn.map((icon) => [icon.name, icon]));
    for (const [name, icon] of bodies) {
      const built = iconToSVG({ body: icon.body, width: icon.width, height: icon.height });
      const seen = byName.get(name)!;
      expect(seen.status, name).toBe('rendered');
      expect(seen.viewBox, name).toBe(built.attributes.viewBox);
      expect(seen.inner, name).toBe(await page.evaluate((body) => (window as unknown as { parsed(body: string): string }).parsed(body), built.body));
    }
    const home = bodies.get('mdi:home')!;
    const set: IconifyJSON = { prefix: 'mdi', icons: { home: { body: home.body, width: home.width, height: home.height } }, aliases: { 'house-mirrored': { parent: 'home', hFlip: true } } };
    const mirrored = iconToSVG(getIconData(set, 'house-mirrored')!);
    expect(mirrored.body).toContain('scale(-1 1)');
    const alias = byName.get('mdi:house-mirrored')!;
    expect(alias.status).toBe('rendered');
    expect(alias.inner).toBe(await page.evaluate((body) => (window as unknown as { parsed(body: string): string }).parsed(body), mirrored.body));
    expect(byName.get(premium)!.status).toBe('failed');
    expect(byName.get(premium)!.inner).toBeNull();
    expect(byName.get('mdi:no-such-icon')!.status).toBe('failed');
    await browser.screenshot(page, 'iconify-icon');
    expect(problems.filter((problem) => !problem.includes('404'))).toEqual([]);
  });

  it('a picker: searches through /iconify/search, lists a set through /iconify/collection, and draws what they name', async () => {
    const { page, problems } = await openPage();
    const api = gateway.url.replace('127.0.0.1', 'localhost');
    const result = await page.evaluate(async (api) => {
      const w = window as unknown as { draw(names: string[]): Promise<{ name: string; status: string }[]> };
      const search = await (await fetch(`${api}/iconify/search?query=arrow&prefixes=mdi,tabler&limit=32`)).json();
      const collection = await (await fetch(`${api}/iconify/collection?prefix=tabler&info=true`)).json();
      const category = Object.keys(collection.categories)[0] as string;
      const listed = collection.categories[category].slice(0, 12).map((name: string) => `tabler:${name}`);
      return { search, title: collection.info.name, drawnSearch: await w.draw(search.icons), drawnListed: await w.draw(listed) };
    }, api);
    expect(result.search.icons.length).toBeGreaterThan(0);
    expect(result.search.icons.every((name: string) => /^(mdi|tabler):/.test(name))).toBe(true);
    expect(Object.keys(result.search.collections).length).toBeGreaterThan(0);
    expect(result.title).toEqual(expect.any(String));
    expect(result.drawnSearch.map((icon) => icon.status)).toEqual(result.search.icons.map(() => 'rendered'));
    expect(result.drawnListed.length).toBe(12);
    expect(result.drawnListed.every((icon) => icon.status === 'rendered')).toBe(true);
    await browser.screenshot(page, 'iconify-picker');
    expect(problems).toEqual([]);
  });
});
