// Icon addresses from the config's templates (resolvers/urls.ts), cut once and filled:
// placeholders filled and encoded, anything else kept as written, the same as a regular
// expression's replace gives.
import { describe, expect, it } from 'vitest';
import { fillTemplate, urlTemplate, type TemplateValues } from '../../resolvers/urls.ts';

/** A template as the config gives it, cut and filled. */
const fill = (text: string, values: TemplateValues) => fillTemplate(urlTemplate(text), values);

/** The rule written the plain way: the model the cut templates must agree with. */
function byReplace(template: string, values: TemplateValues): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name as keyof TemplateValues];
    return value === undefined ? whole : encodeURIComponent(String(value));
  });
}

const VALUES: TemplateValues = { id: 42, slug: 'mdi-home', prefix: 'mdi', name: 'home alt/2', v: '1-abc' };

describe('fillTemplate', () => {
  it('fills and encodes placeholders, and keeps unknown, valueless and malformed ones as written', () => {
    expect(fill('https://cdn.example/svg/{prefix}/{name}.svg?v={v}', VALUES)).toBe('https://cdn.example/svg/mdi/home%20alt%2F2.svg?v=1-abc');
    expect(fill('https://example/{locale}/icons/{slug}', VALUES)).toBe('https://example/{locale}/icons/mdi-home');
    expect(fill('{id}', VALUES)).toBe('42');
    expect(fill('{prefix}{name}', VALUES)).toBe('mdihome%20alt%2F2');
    expect(fill('no placeholders', VALUES)).toBe('no placeholders');
    expect(fill('{unknown}/{a-b}/{}/{{id}}/{id', VALUES)).toBe('{unknown}/{a-b}/{}/{42}/{id');
  });

  it('gives what a regular expression replace gives, whatever the template', () => {
    const pieces = ['{id}', '{slug}', '{prefix}', '{name}', '{v}', '{locale}', '{x}', '{', '}', '/', 'a', '{{', '}}', '%7B', ' '];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 2_000; n++) {
      const template = Array.from({ length: next() % 8 }, () => pieces[next() % pieces.length]).join('');
      const values = n % 2 ? VALUES : { ...VALUES, locale: 'pt-BR' };
      expect(fill(template, values), template).toBe(byReplace(template, values));
    }
  });
});
