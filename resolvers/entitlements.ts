// Who may see premium SVG markup: the one rule, enforced here and nowhere else. Free icons'
// markup is public; a premium icon's only reaches callers whose account owns it. Every path
// to markup (lists, search, a single icon, aliases, fragments, batches) goes through
// `mayReceiveMarkup`, because the only resolver that returns markup calls it.
import DataLoader from 'dataloader';
import type { PrismaClient } from '../prisma/generated/client.ts';
import { Prisma } from '../prisma/generated/client.ts';
import type { Viewer } from './context.ts';

export interface PremiumAware {
  id: number;
  premium: boolean;
}

export function createOwnershipLoader(prisma: PrismaClient, viewer: Viewer | null) {
  return new DataLoader<number, boolean>(async (iconIds) => {
    if (!viewer) return iconIds.map(() => false);
    const rows = await prisma.$queryRaw<{ icon_id: number }[]>(
      Prisma.sql`SELECT icon_id FROM ownership WHERE account_id = ${viewer.accountId} AND icon_id = ANY(${[...iconIds]}::int[])`,
    );
    const owned = new Set(rows.map((row) => row.icon_id));
    return iconIds.map((id) => owned.has(id));
  });
}

export type OwnershipLoader = ReturnType<typeof createOwnershipLoader>;

export async function mayReceiveMarkup(icon: PremiumAware, ownership: OwnershipLoader): Promise<boolean> {
  return !icon.premium || (await ownership.load(icon.id));
}
