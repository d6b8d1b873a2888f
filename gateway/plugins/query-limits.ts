// One GraphQL request must not be able to ask for unbounded work: a depth limit, a cost
// limit and an alias limit, checked at validation, before anything runs. Lists are already
// bounded by the schema (perPage <= 100), so these bound how many times a request can
// multiply them.
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import type { Plugin } from 'graphql-yoga';

export interface QueryLimitOptions {
  /** @default 8 */
  maxDepth?: number;
  /** @default 3000 */
  maxCost?: number;
  /** @default 15 */
  maxAliases?: number;
}

export function useQueryLimits({ maxDepth = 8, maxCost = 3000, maxAliases = 15 }: QueryLimitOptions = {}): Plugin[] {
  return [
    maxDepthPlugin({ n: maxDepth, exposeLimits: true }) as Plugin,
    costLimitPlugin({ maxCost, exposeLimits: true }) as Plugin,
    maxAliasesPlugin({ n: maxAliases, exposeLimits: true }) as Plugin,
  ];
}
