// Which headers the OpenAPI document declares on a status, and which it requires (issue 11,
// item 13): required when every plugin giving that status sends it, or when a plugin adds it
// to every response of it; optional when only some responses carry it.
import { describe, expect, it } from 'vitest';
import type { AddedHeader, DescribedHeader } from '../../gateway/pipeline/plugin.ts';
import { headerComponents, headersOf } from '../../gateway/plugins/rest-routes/openapi-headers.ts';

const header = (name: string): DescribedHeader => ({ name, description: name, schema: { type: 'string' } });
const required = (found: Record<string, { required: boolean }>) => Object.fromEntries(Object.entries(found).map(([name, h]) => [name, h.required]));

describe('headers of a status', () => {
  const added: AddedHeader[] = [
    { ...header('X-Request-Id'), always: true },
    { ...header('X-Remaining'), always: false },
    { ...header('Allow-Only-405'), statuses: [405], always: true },
  ];

  it('requires what every producer of the status sends, and what is added to every response', () => {
    const producers = [
      { status: 503, description: 'overload', headers: [header('Retry-After')] },
      { status: 503, description: 'store away', headers: [header('retry-after'), header('X-Store')] },
    ];
    expect(required(headersOf(503, producers, added))).toEqual({ 'Retry-After': true, 'X-Store': false, 'X-Request-Id': true, 'X-Remaining': false });
  });

  it('keeps a header added on some statuses to those statuses', () => {
    expect(required(headersOf(405, [{ status: 405, description: '' }], added))).toEqual({ 'X-Request-Id': true, 'X-Remaining': false, 'Allow-Only-405': true });
    expect(headersOf(404, [{ status: 404, description: '' }], added)).not.toHaveProperty('Allow-Only-405');
  });

  it('lets a producer that always sends a header make it required where it is otherwise optional', () => {
    expect(required(headersOf(429, [{ status: 429, description: '', headers: [header('X-Remaining')] }], added))).toMatchObject({ 'X-Remaining': true });
  });

  it('names each header once as a component, and its optional form apart when it is required elsewhere', () => {
    const ok = { headers: { 'X-Remaining': { description: 'x', schema: {}, required: false } } as Record<string, unknown> };
    const limited = { headers: { 'X-Remaining': { description: 'x', schema: {}, required: true }, ETag: { description: 'e', schema: {}, required: true } } as Record<string, unknown> };
    expect(Object.keys(headerComponents([{ '200': ok }, { '429': limited }])).sort()).toEqual(['ETag', 'XRemaining', 'XRemainingIfSent']);
    expect(ok.headers['X-Remaining']).toEqual({ $ref: '#/components/headers/XRemainingIfSent' });
    expect(limited.headers['X-Remaining']).toEqual({ $ref: '#/components/headers/XRemaining' });
  });
});
