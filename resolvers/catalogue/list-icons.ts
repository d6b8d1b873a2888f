// `icons`: a filtered, sorted page of icon ids plus the total, in two statements that a
// PostgreSQL pool runs side by side (the total from count-cache.ts when it was counted recently
// at the same catalogue version).
import type { PrismaClient } from '../../prisma/generated/client.ts';
import { Prisma } from '../../prisma/generated/client.ts';
import { pageWithTotal } from './count-cache.ts';
import { filterCondition, offsetOf, SORT_ORDER, type IconFilter, type IdPage, type PageRequest, type SortKey } from './filters.ts';

export interface ListRequest extends PageRequest {
  filter?: IconFilter;
  sort: SortKey;
}

export function listIconIds(prisma: PrismaClient, request: ListRequest): Promise<IdPage> {
  const where = filterCondition(request.filter);
  return pageWithTotal(
    prisma,
    Prisma.sql`SELECT i.id FROM icons i WHERE ${where} ORDER BY ${SORT_ORDER[request.sort]} LIMIT ${request.perPage} OFFSET ${offsetOf(request)}`,
    Prisma.sql`SELECT count(*) AS total FROM icons i WHERE ${where}`,
  );
}
