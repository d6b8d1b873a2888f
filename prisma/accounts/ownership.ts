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

export class UnknownSetError extends Error {
  override name = 'UnknownSetError';
}

/**
 * Gives an account a whole set: a set grant (every icon a later import adds is the account's
 * too) and ownership of every icon the set has now. Creates the account if needed.
 */
export async function grantSet(prisma: PrismaClient, accountName: string, prefix: string): Promise<{ account: string; icons: number; premium: boolean }> {
  const set = await prisma.iconSet.findUnique({ where: { prefix }, select: { id: true, premium: true } });
  if (!set) throw new UnknownSetError(`No set "${prefix}" in the catalogue`);
  return prisma.$transaction(async (tx) => {
    const account = await tx.account.upsert({ where: { name: accountName }, create: { name: accountName }, update: {} });
    await tx.setGrant.upsert({ where: { accountId_setId: { accountId: account.id, setId: set.id } }, create: { accountId: account.id, setId: set.id }, update: {} });
    const icons = await tx.$executeRawUnsafe(
      `INSERT INTO ownership (account_id, icon_id) SELECT $1, id FROM icons WHERE set_id = $2 ON CONFLICT DO NOTHING`,
      account.id,
      set.id,
    );
    return { account: account.name, icons, premium: set.premium };
  });
}

/** Takes a whole set back: its set grant and the account's ownership of every icon of the set. */
export async function revokeSet(prisma: PrismaClient, accountName: string, prefix: string): Promise<{ icons: number; hadGrant: boolean }> {
  const set = await prisma.iconSet.findUnique({ where: { prefix }, select: { id: true } });
  if (!set) throw new UnknownSetError(`No set "${prefix}" in the catalogue`);
  const account = await prisma.account.findUnique({ where: { name: accountName }, select: { id: true } });
  if (!account) return { icons: 0, hadGrant: false };
  return prisma.$transaction(async (tx) => {
    const grants = await tx.setGrant.deleteMany({ where: { accountId: account.id, setId: set.id } });
    const icons = await tx.ownership.deleteMany({ where: { accountId: account.id, icon: { setId: set.id } } });
    return { icons: icons.count, hadGrant: grants.count > 0 };
  });
}

/** Takes back ownership of icons given by numeric id or slug. */
export async function revokeIcons(prisma: PrismaClient, accountName: string, refs: readonly string[]): Promise<{ revoked: string[]; notOwned: string[] }> {
  const ids = refs.filter((ref) => /^\d+$/.test(ref)).map(Number);
  const slugs = refs.filter((ref) => !/^\d+$/.test(ref));
  const account = await prisma.account.findUnique({ where: { name: accountName }, select: { id: true } });
  const icons = await prisma.icon.findMany({ where: { OR: [{ id: { in: ids } }, { slug: { in: slugs } }] }, select: { id: true, slug: true } });
  if (!account) return { revoked: [], notOwned: refs.slice() };
  const owned = await prisma.ownership.findMany({ where: { accountId: account.id, iconId: { in: icons.map((icon) => icon.id) } }, select: { iconId: true } });
  const ownedIds = new Set(owned.map((row) => row.iconId));
  await prisma.ownership.deleteMany({ where: { accountId: account.id, iconId: { in: [...ownedIds] } } });
  const revoked = icons.filter((icon) => ownedIds.has(icon.id));
  const found = new Set(revoked.flatMap((icon) => [String(icon.id), icon.slug]));
  return { revoked: revoked.map((icon) => icon.slug), notOwned: refs.filter((ref) => !found.has(ref)) };
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
