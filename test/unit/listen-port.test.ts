// The port `npm start` listens on, from PORT (gateway/front/server.ts).
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/config-validation.ts';
import { portFromEnv } from '../../lib/listen-port.ts';

describe('PORT', () => {
  it('is 4000 when unset or empty, and what it says otherwise (0: any free port)', () => {
    expect(portFromEnv({})).toBe(4000);
    expect(portFromEnv({ PORT: '' })).toBe(4000);
    expect(portFromEnv({ PORT: '8080' })).toBe(8080);
    expect(portFromEnv({ PORT: '0' })).toBe(0);
  });

  it('stops the start with a message naming it when it is no port', () => {
    for (const bad of ['http', '80.5', '-1', '65536']) {
      expect(() => portFromEnv({ PORT: bad }), bad).toThrow(ConfigError);
      expect(() => portFromEnv({ PORT: bad }), bad).toThrow(/PORT:/);
    }
    expect(() => portFromEnv({ PORT: '65536' })).toThrow('a TCP port is at most 65535');
  });
});
