// Ownership of premium icons: an account that owns an icon gets its SVG markup.
import type { PrismaClient } from '../generated/client.ts';

export interface GrantResult {
  account: string;
  granted: { id: number; slug: string; premium: boolean }[];
  alreadyOwned: string[];
  unknown: string[];
}

/** Grants ownership of icons given by numeric id or slug; creates the account if needed. */
export async function grantIcons(prisma: PrismaClient, accountName: string, refs: readonly string[]): Promise<GrantResult> {
  const ids = refs.filter((ref) => /^\d+$/.test(ref)).map(Number);
  const slugs = refs.filter((ref) => !/^\d+$/.test(ref));
  const icons = await prisma.icon.findMany({
    where: { OR: [{ id: { in: ids } }, { slug: { in: slugs } }] },
    select: { id: true, slug: true, premium: true },
  });
  const found = new Set(icons.flatMap((icon) => [String(icon.id), icon.slug]));
  const unknown = refs.filter((ref) => !found.has(ref));
  const account = await prisma.account.upsert({ where: { name: accountName }, create: { name: accountName }, update: {} });
  const owned = await prisma.ownership.findMany({
    where: { accountId: account.id, iconId: { in: icons.map((icon) => icon.id) } },
    select: { iconId: true },
  });
  const ownedIds = new Set(owned.map((row) => row.iconId));
  const toGrant = icons.filter((icon) => !ownedIds.has(icon.id));
  await prisma.ownership.createMany({ data: toGrant.map((icon) => ({ accountId: account.id, iconId: icon.id })), skipDuplicates: true });
  return {
    account: account.name,
    granted: toGrant,
    alreadyOwned: icons.filter((icon) => ownedIds.has(icon.id)).map((icon) => icon.slug),
    unknown,
  };
}

/** The published icons an account owns, by name: what its profile page lists with their files. */
export async function ownedIcons(
  prisma: PrismaClient,
  accountId: number,
  limit: number,
): Promise<{ id: number; name: string; slug: string; prefix: string; sourceName: string }[]> {
  const rows = await prisma.ownership.findMany({
    where: { accountId, icon: { published: true } },
    select: { icon: { select: { id: true, name: true, slug: true, sourceName: true, set: { select: { prefix: true } } } } },
    orderBy: { icon: { name: 'asc' } },
    take: limit,
  });
  return rows.map(({ icon }) => ({ id: icon.id, name: icon.name, slug: icon.slug, prefix: icon.set.prefix, sourceName: icon.sourceName }));
}
