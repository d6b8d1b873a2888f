// The resolvers: argument rules, then the catalogue modules. No HTTP, no SQL of their own.
import type { IResolvers } from '@graphql-tools/utils';
import { pageRequest, iconFilter, locale, searchText, sortKey, type GraphQLFilter, type GraphQLSort, type PageArgs } from './arguments.ts';
import { listCategories, listTags, type TagWithCount } from './catalogue/categories.ts';
import { loadIconByRef, loadIconBySetName, loadIconsInOrder, type IconRecord, type TagRecord } from './catalogue/icon-records.ts';
import type { IdPage } from './catalogue/filters.ts';
import { listIconIds } from './catalogue/list-icons.ts';
import { searchIconIds } from './catalogue/search/index.ts';
import type { CatalogueContext } from './context.ts';
import { mayFetchFile, mayOpen, mayReceiveMarkup } from './entitlements.ts';
import { catalogueError } from './errors.ts';
import { signatureHolds, signedAddress } from './file-addresses.ts';
import { requestState } from './request-state.ts';
import { safeSvgBody, svgMarkup } from './svg.ts';
import { fillTemplate } from './urls.ts';

interface ListArgs extends PageArgs {
  filter?: GraphQLFilter | null;
  sort?: GraphQLSort | null;
}

interface SearchArgs extends ListArgs {
  q: string;
}

interface IconFileArgs {
  prefix: string;
  name: string;
  expires?: number | null;
  signature?: string | null;
}

/** An icon as Query.icon gives it: a premium one only to its owners, whose svgUrl is then signed. */
type OpenedIcon = IconRecord & { openedByOwner?: boolean };

async function toPage(context: CatalogueContext, { ids, total }: IdPage, { page, perPage }: { page: number; perPage: number }) {
  return {
    data: await loadIconsInOrder(context.prisma, ids),
    meta: { page, perPage, total, totalPages: Math.ceil(total / perPage) },
  };
}

export const resolvers: IResolvers<unknown, CatalogueContext> = {
  Query: {
    async icons(_root, args: ListArgs, context, info) {
      const paging = pageRequest(args, info);
      const ids = await listIconIds(context.prisma, { ...paging, filter: iconFilter(args.filter), sort: sortKey(args.sort) ?? 'popular' });
      return toPage(context, ids, paging);
    },
    async search(_root, args: SearchArgs, context, info) {
      const q = searchText(args.q, info);
      const paging = pageRequest(args, info);
      const ids = await searchIconIds(context.prisma, { ...paging, q, filter: iconFilter(args.filter), sort: sortKey(args.sort) });
      return toPage(context, ids, paging);
    },
    async icon(_root, { ref }: { ref: string }, context) {
      const icon = await loadIconByRef(context.prisma, ref);
      if (!icon) throw catalogueError('NOT_FOUND', `No icon with id or slug "${ref}"`);
      if (!(await mayOpen(icon, requestState(context).ownership))) {
        throw catalogueError('FORBIDDEN', `"${icon.slug}" is a premium icon that your account does not own`);
      }
      return icon.premium ? { ...icon, openedByOwner: true } : icon;
    },
    async iconFile(_root, { prefix, name, expires, signature }: IconFileArgs, context) {
      const icon = await loadIconBySetName(context.prisma, prefix, name);
      if (!icon) throw catalogueError('NOT_FOUND', `No icon named "${name}" in a set "${prefix}"`);
      const signed = signatureHolds(context, icon.id, expires, signature);
      const state = requestState(context);
      if (!(await mayFetchFile(icon, state.ownership, signed))) {
        throw catalogueError('FORBIDDEN', `"${icon.slug}" is a premium icon: send the API key of an account that owns it, or use the signed address its owner is given`);
      }
      return { body: safeSvgBody(await state.bodies.load(icon.id)), width: icon.width, height: icon.height, premium: icon.premium };
    },
    categories: (_root, _args, context) => listCategories(context.prisma),
    tags: (_root, _args, context) => listTags(context.prisma),
  },

  Icon: {
    category: (icon: IconRecord) => icon.categoryName,
    license: (icon: IconRecord) => icon.set.licenseTitle,
    licenseUrl: (icon: IconRecord) => icon.set.licenseUrl,
    publishedAt: (icon: IconRecord) => icon.publishedAt.toISOString(),
    tags: (icon: IconRecord, _args, context) => requestState(context).tags.load(icon.id),
    svgUrl(icon: OpenedIcon, _args, context) {
      const url = fillTemplate(context.urls.svgUrl, { id: icon.id, slug: icon.slug, prefix: icon.set.prefix, name: icon.sourceName });
      return icon.openedByOwner ? signedAddress(context, url, icon.id) : url;
    },
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
