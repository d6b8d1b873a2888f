// Who may see premium SVG markup: the one rule, enforced here and nowhere else. Free icons'
// markup is public; a premium icon's only reaches callers whose account owns it, and only a
// premium icon's owner may open it. Every path to markup (lists, search, a single icon,
// aliases, fragments, batches) goes through `mayReceiveMarkup`, because the only resolver that
// returns markup calls it. The file resolver gives a body to owners, signed addresses, and the
// gateway's raster preview renderer (RASTER_PREVIEW), which sends only a bounded PNG. `accountDependentFields` tells which parts of an operation answer
// differently per account, so a gateway never shares such an answer between accounts.
import DataLoader from 'dataloader';
import { Kind, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type FieldNode, type GraphQLSchema } from 'graphql';
import { Prisma } from '../prisma/generated/client.ts';
import type { Reads } from '../prisma/reads.ts';
import type { Viewer } from './context.ts';

export interface PremiumAware {
  id: number;
  premium: boolean;
}

export function createOwnershipLoader(reads: Reads, viewer: Viewer | null) {
  return new DataLoader<number, boolean>(async (iconIds) => {
    if (!viewer) return iconIds.map(() => false);
    const rows = await reads.rows<{ icon_id: number }>(
      'owned_icons',
      Prisma.sql`SELECT icon_id FROM ownership WHERE account_id = ${viewer.accountId} AND icon_id = ANY(${[...iconIds]}::int[])`,
    );
    const owned = new Set(rows.map((row) => row.icon_id));
    return iconIds.map((id) => owned.has(id));
  });
}

/**
 * The context key the gateway's preview renderer (icon-files) sets to true on the contexts of
 * its own operations, and nothing else does: clients cannot write to a context. Such an
 * operation may read a premium icon's body, because what leaves the gateway is a PNG of bounded
 * size rendered from it, never the markup. `Symbol.for`: the gateway and the resolvers may be
 * loaded as separate module instances (mesh dev).
 */
export const RASTER_PREVIEW = Symbol.for('icon-catalogue: raster preview');

/** Whether the context is the preview renderer's (RASTER_PREVIEW). */
export function rastersOnly(context: object): boolean {
  return (context as Record<symbol, unknown>)[RASTER_PREVIEW] === true;
}

export type OwnershipLoader = ReturnType<typeof createOwnershipLoader>;

/** Whether the caller may open the icon at all: free icons, and premium icons its account owns. */
export async function mayOpen(icon: PremiumAware, ownership: OwnershipLoader): Promise<boolean> {
  return !icon.premium || (await ownership.load(icon.id));
}

/**
 * Whether the caller may fetch the icon's file: whoever may open it, or anyone holding a signed
 * address an owner was given (`signed`: its signature was checked and is in force).
 */
export async function mayFetchFile(icon: PremiumAware, ownership: OwnershipLoader, signed: boolean): Promise<boolean> {
  return signed || mayOpen(icon, ownership);
}

/**
 * Whether the caller receives the icon's markup. `includeOwnedPremium: false` (the rule of
 * lists in the specification: "free icons only") withholds premium markup whoever asks.
 */
export async function mayReceiveMarkup(icon: PremiumAware, ownership: OwnershipLoader, { includeOwnedPremium }: { includeOwnedPremium?: boolean | null } = {}): Promise<boolean> {
  if (icon.premium && includeOwnedPremium === false) return false;
  return mayOpen(icon, ownership);
}

/**
 * Fields whose answer depends on the caller's account, and the argument value, if any, that
 * makes it the same for everyone.
 */
const ACCOUNT_DEPENDENT: Record<string, { sameForAllWhen?: { argument: string; value: boolean } }> = {
  'Query.icon': {}, // FORBIDDEN for everyone but a premium icon's owners, who get signed addresses
  'Query.iconFile': {},
  'Query.iconifyIcons': {}, // premium icons' bodies for their owners only
  'Query.iconifyCollection': {}, // premium icons' names for their owners only
  'Query.iconifySearch': {},
  'Icon.svg': { sameForAllWhen: { argument: 'includeOwnedPremium', value: false } },
};

function sameForAll(field: FieldNode, rule: (typeof ACCOUNT_DEPENDENT)[string]): boolean {
  const when = rule.sameForAllWhen;
  const given = when && field.arguments?.find((argument) => argument.name.value === when.argument)?.value;
  return given?.kind === Kind.BOOLEAN && given.value === when!.value;
}

/** The fields of `document` (as `Type.field`) whose answer depends on who asks; [] when none does. */
export function accountDependentFields(schema: GraphQLSchema, document: DocumentNode): string[] {
  const found = new Set<string>();
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const name = `${typeInfo.getParentType()?.name}.${node.name.value}`;
        const rule = ACCOUNT_DEPENDENT[name];
        if (rule && !sameForAll(node, rule)) found.add(name);
      },
    }),
  );
  return [...found];
}
