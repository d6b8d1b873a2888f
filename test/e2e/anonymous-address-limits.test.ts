// rate-limit's anonymousAddressLimits over a real socket: listed addresses and blocks get their
// own anonymous limit (the first entry that holds the address wins), each address is still
// counted on its own, everyone else keeps anonymousHourlyLimit, and keys keep theirs. A gateway
// in this process on a PGlite copy of the demo catalogue with the memory store; client addresses
// come from X-Forwarded-For behind one trusted proxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../prisma/accounts/api-keys.ts';
import { edit, withConfig } from '../helpers/config.ts';
import { createCatalogueCopy, type TestDatabase } from '../helpers/databases.ts';
import { startGatewayInProcess, type RunningGateway } from '../helpers/gateway.ts';

const env = { ...process.env, REDIS_URL: '', REDIS_CLUSTER_NODES: '' };
const limits = [
  '            anonymousAddressLimits:',
  '              - { addresses: [198.51.100.7], hourlyLimit: 2 }',
  '              - { addresses: [198.51.100.0/24, "2001:db8:5::/48"], hourlyLimit: 5000 }',
].join('\n');

let database: TestDatabase;
let gateway: RunningGateway;
let key: string;

beforeAll(async () => {
  database = await createCatalogueCopy('pglite');
  key = (await createApiKey(database.db.prisma, { accountName: 'address-limits' })).key;
  const configure = (config: string) =>
    edit(config, [
      ['trustedProxies: 0', 'trustedProxies: 1'],
      ['anonymousHourlyLimit: 1000\n', `anonymousHourlyLimit: 3\n${limits}\n`],
    ]);
  gateway = await withConfig(configure, (dir) => startGatewayInProcess(database.db, { dir, env }));
});
afterAll(async () => {
  await gateway?.close();
  await database?.drop();
});

/** Icon data as Iconify's components ask for it, from `address`, without a key unless given. */
async function iconData(address: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.url}/iconify/mdi.json?icons=home`, { headers: { 'x-forwarded-for': address, ...headers } });
  await response.arrayBuffer();
  return { status: response.status, limit: response.headers.get('x-ratelimit-limit'), remaining: response.headers.get('x-ratelimit-remaining') };
}

describe('anonymousAddressLimits', () => {
  it('gives a listed block its own limit, above hourlyLimit, and counts each of its addresses apart', async () => {
    const first = [];
    for (let i = 0; i < 6; i++) first.push(await iconData('198.51.100.9'));
    expect(first.map(({ status }) => status)).toEqual(Array(6).fill(200));
    expect(first.map(({ limit }) => limit)).toEqual(Array(6).fill('5000'));
    expect(first.map(({ remaining }) => remaining)).toEqual(['4999', '4998', '4997', '4996', '4995', '4994']);
    // Another address of the block starts its own count.
    expect(await iconData('198.51.100.10')).toEqual({ status: 200, limit: '5000', remaining: '4999' });
    expect(await iconData('2001:db8:5:1::9')).toEqual({ status: 200, limit: '5000', remaining: '4999' });
  });

  it('lets the first entry that holds the address win', async () => {
    expect(await iconData('198.51.100.7')).toEqual({ status: 200, limit: '2', remaining: '1' });
    expect(await iconData('198.51.100.7')).toEqual({ status: 200, limit: '2', remaining: '0' });
    expect((await iconData('198.51.100.7')).status).toBe(429);
  });

  it('leaves every other address under anonymousHourlyLimit, and keys under theirs', async () => {
    const outside = [];
    for (let i = 0; i < 4; i++) outside.push(await iconData('198.51.101.1'));
    expect(outside.map(({ status }) => status)).toEqual([200, 200, 200, 429]);
    expect(outside.map(({ limit }) => limit)).toEqual(['3', '3', '3', '3']);
    expect((await iconData('2001:db8:6::1')).limit).toBe('3');
    // A key from a listed address is limited as a key, not as the address.
    expect(await iconData('198.51.100.11', { 'x-api-key': key })).toEqual({ status: 200, limit: '1000', remaining: '999' });
  });
});
