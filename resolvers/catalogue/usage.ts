// What an account has: the published premium icons it owns.
import type { PrismaClient } from '../../prisma/generated/client.ts';

export function countOwnedPremiumIcons(prisma: PrismaClient, accountId: number): Promise<number> {
  return prisma.ownership.count({ where: { accountId, icon: { premium: true, published: true } } });
}
