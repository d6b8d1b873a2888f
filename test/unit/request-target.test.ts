// How the front reads a request target (gateway/pipeline/exchange.ts): as sent, without the
// WHATWG URL parser's rewriting.
import { describe, expect, it } from 'vitest';
import { splitTarget } from '../../gateway/pipeline/exchange.ts';

const split = (target: string) => {
  const { path, query } = splitTarget(target);
  return { path, query: [...query] };
};

describe('splitTarget', () => {
  it('splits the path from the query and decodes only the query', () => {
    expect(split('/icons/mdi-home')).toEqual({ path: '/icons/mdi-home', query: [] });
    expect(split('/search?q=arrow%20left&per_page=3')).toEqual({ path: '/search', query: [['q', 'arrow left'], ['per_page', '3']] });
    expect(split('/search?q=a+b&q=c')).toEqual({ path: '/search', query: [['q', 'a b'], ['q', 'c']] });
    expect(split('/icons/mdi%2Dhome?')).toEqual({ path: '/icons/mdi%2Dhome', query: [] });
  });

  it('keeps what a URL parser would rewrite, so it cannot reach a route it does not name', () => {
    expect(split('//icons/mdi-home').path).toBe('//icons/mdi-home'); // a URL parser reads host "icons"
    expect(split('/icons/../categories').path).toBe('/icons/../categories');
    expect(split('/icons\\mdi-home').path).toBe('/icons\\mdi-home');
  });

  it('drops a fragment, reads the absolute form proxies send, and leaves other forms alone', () => {
    expect(split('/icons?page=2#top')).toEqual({ path: '/icons', query: [['page', '2']] });
    expect(split('http://example.test/icons?page=2')).toEqual({ path: '/icons', query: [['page', '2']] });
    expect(split('*').path).toBe('*');
    expect(split('').path).toBe('/');
  });
});
