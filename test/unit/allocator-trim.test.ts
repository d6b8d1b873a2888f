// The allocator trim of `npm start` (gateway/front/allocator-trim.ts), on this machine's real
// glibc: freed pages below live blocks go back to the system, which free() alone never does.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/config-validation.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { trimIntervalFromEnv } from '../../gateway/front/allocator-trim.ts';
import { onGlibc } from '../helpers/platform.ts';

const run = promisify(execFile);

describe('the allocator trim', () => {
  it.skipIf(!onGlibc)('gives back the pages of freed blocks that lie below live ones', async () => {
    const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', 'test/fixtures/fragmented-heap.ts'], { cwd: PROJECT_ROOT, env: { ...process.env, MALLOC_ARENA_MAX: '2' } });
    const result = JSON.parse(stdout) as { available: boolean; trimmed: boolean; collected: number; after: number };
    expect(result.available).toBe(true);
    expect(result.trimmed).toBe(true);
    // 60 of the 64 MB were freed; their pages stay resident until the trim.
    expect(result.collected - result.after).toBeGreaterThan(32 * 1_048_576);
  });

  it('runs every 10 s unless MALLOC_TRIM_INTERVAL_MS says otherwise (0: never), and names the variable when it is not a whole number', () => {
    expect(trimIntervalFromEnv({})).toBe(10_000);
    expect(trimIntervalFromEnv({ MALLOC_TRIM_INTERVAL_MS: '' })).toBe(10_000);
    expect(trimIntervalFromEnv({ MALLOC_TRIM_INTERVAL_MS: '0' })).toBe(0);
    expect(trimIntervalFromEnv({ MALLOC_TRIM_INTERVAL_MS: '2500' })).toBe(2_500);
    for (const bad of ['soon', '-1', '1.5']) {
      expect(() => trimIntervalFromEnv({ MALLOC_TRIM_INTERVAL_MS: bad })).toThrow(ConfigError);
      expect(() => trimIntervalFromEnv({ MALLOC_TRIM_INTERVAL_MS: bad })).toThrow(/MALLOC_TRIM_INTERVAL_MS/);
    }
  });
});
