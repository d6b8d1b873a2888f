// The SVG allow-list (lib/svg/sanitize.ts) against hostile markup, on its own and as the
// importer applies it (mapIconSet), against real Iconify bodies, which it must keep drawing, and
// as a stored body is served: as it is only with its own mark (resolvers/svg.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { mapIconSet } from '../../prisma/import/map-set.ts';
import { sanitizedMark, sanitizeSvgBody } from '../../lib/svg/sanitize.ts';
import { safeSvgBody } from '../../resolvers/svg.ts';

const HOSTILE: [string, string, RegExp][] = [
  ['script', '<script>alert(1)</script><path d="M0 0"/>', /script|alert/],
  ['script in CDATA', '<script><![CDATA[alert(1)]]></script>', /script|alert/],
  ['event handler', '<path d="M0 0" onload="alert(1)" onClick="alert(2)"/>', /onload|onclick|alert/i],
  ['javascript: link', '<a href="javascript:alert(1)"><path d="M0 0"/></a>', /javascript|<a\b/],
  ['xlink javascript', '<a xlink:href="javascript:alert(1)"><path d="M0 0"/></a>', /javascript/],
  ['foreignObject', '<foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></body></foreignObject>', /foreignObject|img|onerror|alert|body/i],
  ['external use', '<use href="https://evil.example/s.svg#a"/>', /evil/],
  ['relative use', '<use href="other.svg#a"/>', /other\.svg/],
  ['external image', '<image href="https://evil.example/x.png" width="10" height="10"/>', /image|evil/],
  ['data: image', '<image href="data:image/svg+xml;base64,PHN2Zz4="/>', /image|data:/],
  ['CSS url() in style', '<path d="M0 0" style="fill:url(https://evil.example/x)"/>', /evil/],
  ['CSS url() in an attribute', '<path d="M0 0" fill="url(https://evil.example/x#g)"/>', /evil/],
  ['style element', '<style>@import url(https://evil.example/x.css); path{fill:red}</style>', /style|import|evil/],
  ['animated href', '<a><set attributeName="href" to="javascript:alert(1)"/></a><animate attributeName="xlink:href" values="javascript:alert(1)"/>', /javascript|<set|<animate/],
  ['iframe', '<iframe src="https://evil.example"></iframe>', /iframe|evil/],
  ['entity-hidden scheme', '<a href="jav&#x09;ascript:alert(1)"><path d="M0 0"/></a>', /ascript|alert/],
  ['escaped url in style', '<path d="M0 0" style="fill:u\\72l(https://evil.example)"/>', /evil/],
];

describe('sanitizeSvgBody', () => {
  for (const [name, body, forbidden] of HOSTILE) {
    it(`removes ${name}`, () => {
      expect(sanitizeSvgBody(body)).not.toMatch(forbidden);
    });
  }

  it('keeps what draws: shapes, gradients, local references, masks, animations of geometry', () => {
    const body =
      '<defs><linearGradient id="g" x1="0" x2="1" gradientTransform="rotate(45)"><stop offset="0" stop-color="#f00"/></linearGradient><mask id="m"><rect width="4" height="4" fill="#fff"/></mask></defs>' +
      '<g fill="none" stroke="currentColor" stroke-width="2" mask="url(#m)"><path d="M1 1h2" fill="url(#g)"><animate attributeName="d" dur="1s" values="M1 1h2;M1 1h3"/></path><use xlink:href="#g" href="#g"/></g>';
    const clean = sanitizeSvgBody(body);
    for (const kept of ['<linearGradient id="g"', 'gradientTransform="rotate(45)"', 'stop-color="#f00"', 'mask="url(#m)"', 'fill="url(#g)"', '<animate attributeName="d"', 'xlink:href="#g"', 'href="#g"', 'stroke="currentColor"']) {
      expect(clean).toContain(kept);
    }
  });

  it('keeps every icon of a real set drawing the same shapes (mdi: paths with their d)', () => {
    const require = createRequire(import.meta.url);
    const set = JSON.parse(readFileSync(require.resolve('@iconify-json/mdi/icons.json'), 'utf8')) as { icons: Record<string, { body: string }> };
    const paths = (markup: string) => [...markup.matchAll(/ d="([^"]+)"/g)].map((match) => match[1]);
    for (const { body } of Object.values(set.icons).slice(0, 500)) expect(paths(sanitizeSvgBody(body))).toEqual(paths(body));
  });
});

describe('the importer', () => {
  it('stores sanitized bodies', () => {
    const { icons } = mapIconSet(
      {
        json: { prefix: 'evil', width: 24, height: 24, icons: { bad: { body: '<script>alert(1)</script><path d="M0 0h1" onload="alert(2)"/><use href="https://evil.example/x#a"/>' } } },
        info: { name: 'Evil', author: { name: 'x' }, license: { title: 'MIT', spdx: 'MIT' } },
        metadata: {},
      } as never,
      { premium: false } as never,
    );
    expect(icons[0]!.body).not.toMatch(/script|alert|onload|evil/);
    expect(icons[0]!.body).toContain('<path d="M0 0h1"');
  });
});

describe('serving a stored body', () => {
  const clean = '<path d="M0 0h4v4z" fill="currentColor"/>';
  const hostile = '<script>alert(1)</script><path d="M1 1h2" onload="alert(2)"/>';

  it('serves a body with its own mark as it is', () => {
    expect(safeSvgBody(clean, sanitizedMark(clean))).toBe(clean);
  });

  it('sanitizes a body without a mark, or with the mark of another body (changed after its import)', () => {
    for (const mark of [null, sanitizedMark(clean), 'not-a-mark']) {
      const served = safeSvgBody(hostile, mark);
      expect(served).not.toMatch(/script|alert|onload/);
      expect(served).toContain('<path d="M1 1h2"');
    }
  });

  it('marks differ by body', () => {
    expect(sanitizedMark(clean)).not.toBe(sanitizedMark(`${clean} `));
    expect(sanitizedMark(clean)).toMatch(/^[\w-]{22}$/);
  });
});
