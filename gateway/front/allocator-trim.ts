// Giving the C allocator's free pages back to the operating system, every
// MALLOC_TRIM_INTERVAL_MS (10 s by default; 0: never). glibc's free() returns only the free space
// at the top of an arena, so blocks freed below live ones keep their pages: PGlite's start and
// the list index's read leave tens of megabytes of them in an embedded gateway, and a long run of
// cache misses more (bench/results-comment-figures.md). malloc_trim(0) gives back the free pages
// anywhere in every arena, in a millisecond or two of the main thread. Node has no binding for
// it, so koffi (an FFI library whose npm package carries its built binaries; its install script
// is not needed) calls it. Only where the C library is glibc; elsewhere nothing runs.
import { z } from 'zod';
import { envWholeNumber, validateConfig } from '../../lib/config-validation.ts';

export interface AllocatorTrim {
  /** Gives the allocator's free pages back now; false when there were none to give. */
  trim(): boolean;
}

/** glibc's malloc_trim, or undefined (with the reason told) where there is none (another C library or system) or koffi cannot load. */
export async function loadAllocatorTrim(onUnavailable: (reason: string) => void = () => {}): Promise<AllocatorTrim | undefined> {
  if (process.platform !== 'linux') {
    onUnavailable(`not on Linux (${process.platform})`);
    return undefined;
  }
  try {
    const { default: koffi } = await import('koffi');
    const mallocTrim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
    return { trim: () => mallocTrim(0) === 1 };
  } catch (error) {
    onUnavailable(error instanceof Error ? error.message : String(error));
    return undefined;
  }
}

const trimEnv = z.object({
  MALLOC_TRIM_INTERVAL_MS: envWholeNumber.default(10_000),
});

/** MALLOC_TRIM_INTERVAL_MS, validated (a bad value is a ConfigError naming the variable). */
export function trimIntervalFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  return validateConfig(trimEnv, env, 'the environment').MALLOC_TRIM_INTERVAL_MS;
}

export interface TrimReport {
  /** How long the trim held the thread. */
  ms: number;
  /** How much the resident memory fell meanwhile (other threads may have grown it). */
  releasedBytes: number;
}

/** Trims every `intervalMs` (the timer does not keep the process alive); returns what stops it. */
export function startAllocatorTrims(allocator: AllocatorTrim, intervalMs: number, onTrim: (report: TrimReport) => void): () => void {
  const timer = setInterval(() => {
    const before = process.memoryUsage.rss();
    const started = performance.now();
    allocator.trim();
    onTrim({ ms: performance.now() - started, releasedBytes: before - process.memoryUsage.rss() });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
