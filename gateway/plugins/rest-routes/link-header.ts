// RFC 8288 `Link` headers for paged responses: first, prev, next and last, each the request's
// own path and query with only `page` changed (so every other parameter, unknown ones included,
// is kept as sent). A request that pages by cursor (`after`) gets its next page by cursor too
// (`meta.next_cursor`); its other links are pages by number. The targets are relative references (path and query, no scheme or host),
// resolved against the request's own URL: right behind any proxy or host name, with nothing to
// configure.

export interface PagePosition {
  page: number;
  /** The number of pages; 0 when nothing matches. */
  totalPages: number;
  /** The next page's cursor (`meta.next_cursor`), when the body has one. */
  nextCursor?: string;
}

/** Where a page body stands, from its `meta` (`page` and `total_pages`); undefined when it does not say. */
export function pagePosition(body: unknown): PagePosition | undefined {
  const meta = (body as { meta?: { page?: unknown; total_pages?: unknown; next_cursor?: unknown } } | null)?.meta;
  const { page, total_pages: totalPages, next_cursor: nextCursor } = meta ?? {};
  if (!Number.isInteger(page) || !Number.isInteger(totalPages)) return undefined;
  return { page: page as number, totalPages: totalPages as number, ...(typeof nextCursor === 'string' ? { nextCursor } : {}) };
}

/** The Link header of a page: first and last always (last is page 1 when nothing matches), prev and next where they exist. */
export function linkHeader(path: string, query: URLSearchParams, { page, totalPages, nextCursor }: PagePosition): string {
  const last = Math.max(totalPages, 1);
  const target = (at: { page: number } | { after: string }) => {
    const params = new URLSearchParams(query);
    if ('after' in at) {
      params.delete('page');
      params.set('after', at.after);
    } else {
      params.delete('after');
      params.set('page', String(at.page));
    }
    return `<${path}?${params}>`;
  };
  const links = [`${target({ page: 1 })}; rel="first"`];
  if (page > 1) links.push(`${target({ page: Math.min(page - 1, last) })}; rel="prev"`);
  if (page < last) links.push(`${query.has('after') && nextCursor ? target({ after: nextCursor }) : target({ page: page + 1 })}; rel="next"`);
  links.push(`${target({ page: last })}; rel="last"`);
  return links.join(', ');
}
