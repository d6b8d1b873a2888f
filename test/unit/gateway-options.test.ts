// The gateway's own entry in .meshrc.yaml: who the client is (trustedProxies) and the order of
// plugins whose stages depend on each other (issue 11, item 3).
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../lib/config-validation.ts';
import { gatewayOptions } from '../../gateway/options.ts';

const validate = (options: unknown) => validateConfig(gatewayOptions, options, '.meshrc.yaml', ['plugins', '@icon-catalogue/gateway']);

describe('the gateway entry', () => {
  it('trusts no proxy unless told how many stand in front', () => {
    expect(validate({ plugins: [] }).trustedProxies).toBe(0);
    expect(validate({ trustedProxies: 2, plugins: [] }).trustedProxies).toBe(2);
    expect(() => validate({ trustedProxies: -1, plugins: [] })).toThrow(/plugins\["@icon-catalogue\/gateway"\]\.trustedProxies: /);
    expect(() => validate({ trustedProxies: true, plugins: [] })).toThrow(/\.trustedProxies: /);
  });

  it('wants auth-throttle before api-key-auth, whose lookups it spares', () => {
    expect(() => validate({ plugins: [{ 'auth-throttle': {} }, { 'api-key-auth': {} }] })).not.toThrow();
    expect(() => validate({ plugins: [{ 'api-key-auth': {} }, { 'auth-throttle': {} }] })).toThrow(
      /plugins\["@icon-catalogue\/gateway"\]\.plugins\[1\]: "auth-throttle" must be listed before "api-key-auth" \(plugins\[0\]\)/,
    );
  });
});
