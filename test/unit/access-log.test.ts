// The access line is written by its own serializer (lib/logger.ts, request-log.ts); its time
// must stay what pino would write. The whole line is checked end to end in
// test/e2e/production-profile.test.ts.

import { describe, expect, it } from 'vitest';
import { isoTime } from '../../lib/logger.ts';

describe('isoTime', () => {
  it('equals toISOString at millisecond, second and day boundaries and anywhere between', () => {
    const moments = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1), Date.now()];
    for (let i = 0; i < 2000; i++) moments.push(Math.floor(Math.random() * 4_000_000_000_000));
    // In order and shuffled, since the formatted second is kept between calls.
    for (const now of [...moments, ...moments.sort((a, b) => a - b)]) expect(isoTime(now)).toBe(new Date(now).toISOString());
  });
});
