// RFC 8288 pagination links: which relations a page gets, and that only `page` changes.
import { describe, expect, it } from 'vitest';
import { linkHeader, pagePosition } from '../../gateway/plugins/rest-routes/link-header.ts';

describe('Link headers', () => {
  const query = new URLSearchParams('q=home%20bold&per_page=5&page=3&x=1');

  it('gives first, prev, next and last, changing only page', () => {
    expect(linkHeader('/search', query, { page: 3, totalPages: 9 })).toBe(
      [
        '</search?q=home+bold&per_page=5&page=1&x=1>; rel="first"',
        '</search?q=home+bold&per_page=5&page=2&x=1>; rel="prev"',
        '</search?q=home+bold&per_page=5&page=4&x=1>; rel="next"',
        '</search?q=home+bold&per_page=5&page=9&x=1>; rel="last"',
      ].join(', '),
    );
    expect(query.get('page')).toBe('3'); // the request's own query is left alone
  });

  it('has no prev on page 1, no next on the last page, last 1 for no results, and prev = last past the end', () => {
    const rels = (page: number, totalPages: number) => [...linkHeader('/icons', new URLSearchParams(), { page, totalPages }).matchAll(/<\/icons\?page=(\d+)>; rel="(\w+)"/g)].map((m) => `${m[2]}=${m[1]}`);
    expect(rels(1, 3)).toEqual(['first=1', 'next=2', 'last=3']);
    expect(rels(3, 3)).toEqual(['first=1', 'prev=2', 'last=3']);
    expect(rels(1, 0)).toEqual(['first=1', 'last=1']);
    expect(rels(50, 3)).toEqual(['first=1', 'prev=3', 'last=3']);
  });

  it('reads the position from a page body, and nothing from other bodies', () => {
    expect(pagePosition({ data: [], meta: { page: 2, per_page: 5, total: 30, total_pages: 6 } })).toEqual({ page: 2, totalPages: 6 });
    expect(pagePosition({ data: [] })).toBeUndefined();
    expect(pagePosition(null)).toBeUndefined();
  });
});
