// The resolvers: argument rules, then the catalogue modules. No HTTP, no SQL of their own.
import type { IResolvers } from '@graphql-tools/utils';
import { pageRequest, iconFilter, locale, searchText, sortKey, wholeNumber, type GraphQLFilter, type GraphQLSort, type PageArgs } from './arguments.ts';
import { attributionRequired } from './catalogue/attribution.ts';
import { iconBatch, type BatchArgs } from './batch-arguments.ts';
import { listSets } from './catalogue/icon-sets.ts';
import type { SetRecord } from './catalogue/sets-and-categories.ts';
import { countOwnedPremiumIcons } from './catalogue/usage.ts';
import { suggest } from './catalogue/suggest.ts';
import { listCategories, listTags, type TagWithCount } from './catalogue/categories.ts';
import { loadIconDetail } from './catalogue/icon-detail.ts';
import { loadIconsInOrder, type IconRecord, type TagRecord } from './catalogue/icon-records.ts';
import type { IdPage } from './catalogue/filters.ts';
import { decodeCursor, encodeCursor, type CursorScope } from './catalogue/cursor.ts';
import { listPage } from './catalogue/list-icons.ts';
import { similarIconIds } from './catalogue/similar.ts';
import { searchIconIds } from './catalogue/search/index.ts';
import { iconifyChars, iconifyCollection, iconifyIcons, iconifySearch, iconifySets, type IconifyCollectionData } from './catalogue/iconify.ts';
import type { CatalogueContext } from './context.ts';
import { mayFetchFile, mayOpen, mayReceiveMarkup, rastersOnly } from './entitlements.ts';
import { badInput, catalogueError } from './errors.ts';
import { signatureHolds, signedAddress } from './file-addresses.ts';
import { primeIconDetail, requestState } from './request-state.ts';
import { svgMarkup } from './svg.ts';
import { fileVersion, fillTemplate } from './urls.ts';

interface SearchArgs extends PageArgs {
  q: string;
  filter?: GraphQLFilter | null;
  sort?: GraphQLSort | null;
}

interface ListArgs extends Omit<SearchArgs, 'q'>, BatchArgs {
  after?: string | null;
}

interface IconFileArgs {
  prefix: string;
  name: string;
  expires?: number | null;
  signature?: string | null;
}

/** The most names one Query.iconifyIcons asks for. */
const MAX_ICONIFY_NAMES = 1000;

/** An icon as Query.icon gives it: a premium one only to its owners, whose svgUrl is then signed. */
type OpenedIcon = IconRecord & { openedByOwner?: boolean };

/** What the file address templates (svgUrl, previewUrl) are filled with. */
function fileAddressValues(icon: IconRecord) {
  return { id: icon.id, slug: icon.slug, prefix: icon.set.prefix, name: icon.sourceName, v: fileVersion(icon.bodyDigest) };
}

function pageOf(data: IconRecord[], total: number, { page, perPage }: { page: number; perPage: number }) {
  return { data, meta: { page, perPage, total, totalPages: Math.ceil(total / perPage) } };
}

async function toPage(context: CatalogueContext, { ids, total }: IdPage, paging: { page: number; perPage: number }) {
  return pageOf(await loadIconsInOrder(context.reads, ids), total, paging);
}

export const resolvers: IResolvers<unknown, CatalogueContext> = {
  Query: {
    async icons(_root, args: ListArgs, context, info) {
      if (args.after != null && (args.ids != null || args.slugs != null)) throw badInput('after', 'after pages through a list; ids and slugs ask for given icons');
      const batch = await iconBatch(context.reads, args);
      if (batch) {
        const total = batch.icons.length;
        const perPage = total + batch.missing.length;
        return { data: batch.icons, meta: { page: 1, perPage, total, totalPages: total > 0 ? 1 : 0, missing: batch.missing } };
      }
      const paging = pageRequest(args, info);
      const scope = { filter: iconFilter(args.filter), sort: sortKey(args.sort) ?? 'popular', perPage: paging.perPage } satisfies CursorScope;
      if (args.after != null && paging.page !== 1) throw badInput('after', 'give page or after, not both');
      const after = args.after == null ? undefined : decodeCursor(args.after, scope);
      const page = after?.page ?? paging.page;
      const { icons, total } = await listPage(context.reads, { ...scope, page, after });
      const result = pageOf(icons, total, { page, perPage: paging.perPage });
      const last = result.data.at(-1);
      const more = result.data.length === paging.perPage && page < result.meta.totalPages;
      return { ...result, meta: { ...result.meta, nextCursor: last && more ? encodeCursor(scope, last, page + 1) : null } };
    },
    async search(_root, args: SearchArgs, context, info) {
      const q = searchText(args.q, info);
      const paging = pageRequest(args, info);
      const ids = await searchIconIds(context.reads, { ...paging, q, filter: iconFilter(args.filter), sort: sortKey(args.sort) });
      return toPage(context, ids, paging);
    },
    async icon(_root, { ref }: { ref: string }, context) {
      const detail = await loadIconDetail(context.reads, { ref }, context.viewer?.accountId ?? null);
      if (!detail) throw catalogueError('NOT_FOUND', `No icon with id or slug "${ref}"`);
      primeIconDetail(context, detail);
      const { icon } = detail;
      if (!(await mayOpen(icon, requestState(context).ownership))) {
        throw catalogueError('FORBIDDEN', `"${icon.slug}" is a premium icon that your account does not own`);
      }
      return icon.premium ? { ...icon, openedByOwner: true } : icon;
    },
    async similarIcons(_root, args: PageArgs & { ref: string }, context, info) {
      const paging = pageRequest(args, info);
      const detail = await loadIconDetail(context.reads, { ref: args.ref }, null);
      if (!detail) throw catalogueError('NOT_FOUND', `No icon with id or slug "${args.ref}"`);
      return toPage(context, await similarIconIds(context.reads, detail, paging), paging);
    },
    async iconFile(_root, { prefix, name, expires, signature }: IconFileArgs, context) {
      // A signed request may be anyone's: the body is read with the record and leaves the gateway only if the signature holds.
      const releasePremiumBody = expires != null || signature != null || rastersOnly(context);
      const detail = await loadIconDetail(context.reads, { prefix, name }, context.viewer?.accountId ?? null, { releasePremiumBody });
      if (!detail) throw catalogueError('NOT_FOUND', `No icon named "${name}" in a set "${prefix}"`);
      primeIconDetail(context, detail);
      const { icon, body } = detail;
      const signed = signatureHolds(context, icon.id, expires, signature);
      if (!(await mayFetchFile(icon, requestState(context).ownership, signed || rastersOnly(context)))) {
        throw catalogueError('FORBIDDEN', `"${icon.slug}" is a premium icon: send the API key of an account that owns it, or use the signed address its owner is given`);
      }
      if (body === null) throw new Error(`icon ${icon.id}: the file may be fetched but its body was not read`);
      return { body, width: icon.width, height: icon.height, premium: icon.premium, version: fileVersion(icon.bodyDigest) };
    },
    async iconifyIcons(_root, { prefix, names }: { prefix: string; names: string[] }, context) {
      if (names.length > MAX_ICONIFY_NAMES) throw badInput('names', `names must hold at most ${MAX_ICONIFY_NAMES} names`);
      const data = await iconifyIcons(context.reads, prefix, names, context.viewer?.accountId ?? null);
      if (!data) throw catalogueError('NOT_FOUND', `No icon set "${prefix}"`);
      return data;
    },
    iconifySets: (_root, _args, context) => iconifySets(context.reads),
    async iconifyCollection(_root, { prefix }: { prefix: string }, context) {
      const data = await iconifyCollection(context.reads, prefix, context.viewer?.accountId ?? null);
      if (!data) throw catalogueError('NOT_FOUND', `No icon set "${prefix}"`);
      return data;
    },
    iconifySearch(_root, args: { q: string; limit: number; prefixes?: string[] | null; category?: string | null }, context, info) {
      return iconifySearch(context.reads, {
        query: searchText(args.q, info),
        limit: wholeNumber(info, 'limit', args.limit),
        prefixes: args.prefixes ?? undefined,
        category: args.category ?? undefined,
      }, context.viewer?.accountId ?? null);
    },
    categories: (_root, _args, context) => listCategories(context.reads),
    tags: (_root, _args, context) => listTags(context.reads),
    sets: (_root, _args, context) => listSets(context.prisma),
    suggest(_root, args: { q: string; limit?: number | null }, context, info) {
      return suggest(context.prisma, searchText(args.q, info), wholeNumber(info, 'limit', args.limit));
    },
    async usage(_root, _args, context) {
      const standing = context.rateLimit;
      return {
        limit: standing?.limit ?? null,
        remaining: standing?.remaining ?? null,
        reset: standing?.resetAt ?? null,
        requestsThisHour: standing?.count ?? null,
        ownedPremiumIcons: context.viewer ? await countOwnedPremiumIcons(context.prisma, context.viewer.accountId) : 0,
      };
    },
  },

  IconSet: {
    attributionRequired: (set: SetRecord) => attributionRequired(set),
    iconCount: (set: SetRecord, _args, context) => requestState(context).setIconCounts.load(set.prefix),
    async samples(set: SetRecord, _args, context) {
      const state = requestState(context);
      const icons = await state.iconRecords.loadMany(await state.setSampleIds.load(set.prefix));
      const failure = icons.find((icon) => icon instanceof Error);
      if (failure) throw failure;
      return icons.filter((icon): icon is IconRecord => icon != null); // null: unpublished since the ids were read
    },
  },

  IconifyCollection: {
    // Read only when asked for (Iconify's `chars=1`): a set's map can hold thousands of entries.
    chars: (collection: IconifyCollectionData, _args, context) => iconifyChars(context.reads, collection),
  },

  // `category`, `license`, `licenseUrl` and `attribution` are the record's own properties (icon-records.ts).
  Icon: {
    publishedAt: (icon: IconRecord) => icon.publishedAt.toISOString(),
    colors: async (icon: IconRecord, _args, context) => (await requestState(context).colorsAndKeywords.load(icon.id)).colors,
    keywords: async (icon: IconRecord, _args, context) => (await requestState(context).colorsAndKeywords.load(icon.id)).keywords,
    tags: (icon: IconRecord, _args, context) => requestState(context).tags.load(icon.id),
    svgUrl(icon: OpenedIcon, _args, context) {
      const url = fillTemplate(context.urls.svgUrl, fileAddressValues(icon));
      return icon.openedByOwner ? signedAddress(context, url, icon.id) : url;
    },
    previewUrl: (icon: IconRecord, _args, context) => fillTemplate(context.urls.previewUrl, fileAddressValues(icon)),
    url: (icon: IconRecord, args: { locale?: string | null }, context) =>
      fillTemplate(context.urls.pageUrl, {
        id: icon.id,
        slug: icon.slug,
        prefix: icon.set.prefix,
        name: icon.sourceName,
        locale: locale(args.locale, context.urls.defaultLocale),
      }),
    async svg(icon: IconRecord, args: { includeOwnedPremium?: boolean | null }, context) {
      const state = requestState(context);
      if (!(await mayReceiveMarkup(icon, state.ownership, args))) return null;
      return svgMarkup(await state.bodies.load(icon.id), icon.width, icon.height);
    },
  },

  Tag: {
    iconCount: (tag: TagRecord | TagWithCount, _args, context) =>
      'iconCount' in tag ? tag.iconCount : requestState(context).tagIconCounts.load(tag.tagId),
  },
};
