// The limit headers as the API's description states them, under their configured names: the same
// words for rate-limit's 429 and auth-throttle's, so the OpenAPI document has one of each.
import type { DescribedHeader } from '../../pipeline/plugin.ts';
import type { RateLimitOptions } from './options.ts';

export function describedLimitHeaders(names: RateLimitOptions['headers']): Record<'retryAfter' | 'remaining' | 'reset', DescribedHeader> {
  return {
    retryAfter: { name: names.retryAfter, description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
    remaining: { name: names.remaining, description: 'Requests left in the current window: the hour, or on a 429 for failed authentications, the throttle’s window.', schema: { type: 'integer', minimum: 0 } },
    reset: { name: names.reset, description: 'When the current window’s count starts again, in Unix seconds.', schema: { type: 'integer' } },
  };
}
