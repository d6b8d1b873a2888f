// What the icon-files plugin says of its paths in the API's description (the OpenAPI document).
import cssColors from 'color-name';
import type { ApiDescription, DescribedHeader, DescribedPath, DescribedResponse } from '../../pipeline/plugin.ts';
import { QUARTER_TURNS } from './customize.ts';
import type { IconFilesOptions } from './options.ts';

/**
 * A regular expression matching any of `words` in any letter case, as customize.ts reads them.
 * JSON Schema's patterns take no flags, so each letter becomes a class of both its cases; an
 * `enum` would say that only the lower-case spelling is allowed.
 */
function anyCase(words: readonly string[]): string {
  return words.map((word) => word.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`)).join('|');
}

const COLOR_PATTERN = `^(#?([0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|${anyCase(Object.keys(cssColors))})$`;
const ROTATE_PATTERN = `^(${anyCase(Object.keys(QUARTER_TURNS))})$`;
const FLIP_WORD = `(${anyCase(['horizontal', 'vertical'])})`;
const FLIP_PATTERN = `^${FLIP_WORD}(\\s*,\\s*${FLIP_WORD})*$`;

const ETAG: DescribedHeader = { name: 'ETag', description: 'Strong validator of the file (one per content coding); send it back in If-None-Match for a 304.', schema: { type: 'string' } };
const CACHE_CONTROL: DescribedHeader = {
  name: 'Cache-Control',
  description: 'Free icons: `public, max-age=<seconds>` (browsers and CDNs may keep them). Premium icons: `private`, for at most the signed address’s remaining life, else `no-cache`.',
  schema: { type: 'string' },
};
const X_CACHE: DescribedHeader = { name: 'X-Cache', description: 'HIT when the icon’s data came from the gateway’s cache, MISS when it was read for this request.', schema: { type: 'string', enum: ['HIT', 'MISS'] } };
const PREVIEW_CACHE: DescribedHeader = { name: 'X-Cache', description: 'HIT when the rendered preview came from the gateway’s cache, MISS when it was rendered for this request.', schema: { type: 'string', enum: ['HIT', 'MISS'] } };
const ALLOW: DescribedHeader = { name: 'Allow', description: 'The methods the path allows.', schema: { type: 'string', const: 'GET, HEAD' } };
const VARY: DescribedHeader = { name: 'Vary', description: '`Accept-Encoding` (and `Origin` when CORS allows a list of origins).', schema: { type: 'string' } };
const CONTENT_ENCODING: DescribedHeader = { name: 'Content-Encoding', description: '`br` or `gzip` when Accept-Encoding asks for it and the file is large enough to gain.', schema: { type: 'string', enum: ['br', 'gzip'] } };
const CSP: DescribedHeader = { name: 'Content-Security-Policy', description: 'Opened at its own address, the file may load and run nothing.', schema: { type: 'string' } };
const NOSNIFF: DescribedHeader = { name: 'X-Content-Type-Options', description: '`nosniff`.', schema: { type: 'string', const: 'nosniff' } };

const pathParameters = [
  { name: 'prefix', in: 'path', required: true, description: 'The icon set’s prefix, for example `mdi`.', schema: { type: 'string', minLength: 1 } },
  { name: 'name', in: 'path', required: true, description: 'The icon’s name in its set, for example `home`.', schema: { type: 'string', minLength: 1 } },
];

const query = (name: string, description: string, schema: Record<string, unknown>) => ({ name, in: 'query', required: false, allowEmptyValue: true, description, schema });

function customizationParameters({ svgSize }: IconFilesOptions, sizeOnly: boolean) {
  const bounded = { type: 'integer', minimum: svgSize.min, maximum: svgSize.max };
  return [
    query('color', 'Replaces `currentColor` (the colour of monochrome icons): a hex colour (`#1e90ff`, `%23f00`, or the digits alone) or a CSS colour name (`tomato`), in any letter case.', { type: 'string', maxLength: 50, pattern: COLOR_PATTERN }),
    ...(sizeOnly
      ? []
      : [
          query('size', 'Height in pixels; the width follows the icon’s proportions. Not with width or height.', bounded),
          query('width', 'Width in pixels (the height follows unless given).', bounded),
          query('height', 'Height in pixels (the width follows unless given).', bounded),
        ]),
    query('rotate', 'Clockwise: `90`, `180` or `270` degrees, also written `90deg` (or `1`, `2`, `3` quarter turns), in any letter case.', { type: 'string', pattern: ROTATE_PATTERN, examples: ['90'] }),
    query('flip', 'Mirror: `horizontal`, `vertical` or `horizontal,vertical`, in any letter case.', { type: 'string', pattern: FLIP_PATTERN, examples: ['horizontal'] }),
    // Not the client's to compose: a malformed signed address is one whose signature does not match (403), not a 400.
    query('expires', 'Of a signed address (premium icons): as `svg_url` of GET /icons/{ref} gives it to an owner (Unix seconds). A malformed one is an invalid address: 403.', { type: 'string' }),
    query('signature', 'Of a signed address (premium icons), with `expires`. A wrong one: 403.', { type: 'string' }),
  ];
}

function ownResponses(fresh: DescribedHeader[]): DescribedResponse[] {
  return [
    { status: 200, description: 'OK', headers: fresh },
    { status: 304, description: 'Not modified: If-None-Match matched the ETag. No body.', headers: fresh.filter((header) => header !== CONTENT_ENCODING) },
    { status: 400, description: 'A customization parameter breaks its rule; the message names it.' },
    { status: 403, description: 'A premium icon, and neither the key of an account that owns it nor a valid signed address; or a signed address that has expired or was altered.' },
    { status: 404, description: 'No icon of that name in that set.' },
    { status: 405, description: 'A method other than GET or HEAD.', headers: [ALLOW] },
  ];
}

const ACCESS =
  'No key is needed for a free icon (an `<img>` cannot send one): such requests are counted per client address under the anonymous limit. A premium icon needs the key of an account that owns it, or the signed address (`expires`, `signature`) that GET /icons/{ref} gives its owners in `svg_url`, valid for a limited time.';

function describePreview({ preview, maxAgeSeconds, versionedMaxAgeSeconds }: IconFilesOptions, route: string): DescribedPath {
  const cacheControl: DescribedHeader = {
    name: 'Cache-Control',
    description: `Public for every icon: \`public, max-age=${versionedMaxAgeSeconds}, immutable\` when asked for at the icon’s current version (\`v=\`, as \`preview_url\` gives it), else \`public, max-age=${maxAgeSeconds}\`.`,
    schema: { type: 'string' },
  };
  const watermark = preview.watermark ? ` Watermarked (diagonal bands) on ${preview.watermark.icons === 'all' ? 'every icon' : 'premium icons'}.` : '';
  return {
    path: route,
    operationId: 'getIconPreview',
    tag: 'Files',
    summary: 'An icon’s public PNG preview, premium icons included',
    description: `A small transparent PNG of any published icon, as \`preview_url\` addresses it, its longer side \`size\` pixels (at most ${preview.maxSize}).${watermark} No key is needed, for free and premium icons alike: requests without one are counted per client address under the anonymous limit. Never counted as a download, and never the markup: a premium icon’s SVG stays for its owners.`,
    parameters: [
      ...pathParameters,
      query('size', `The longer side in pixels, ${preview.minSize} to ${preview.maxSize}.`, { type: 'integer', minimum: preview.minSize, maximum: preview.maxSize, default: preview.maxSize }),
      query('v', 'The icon’s file version, as `preview_url` gives it: with the current one the answer may be kept forever.', { type: 'string' }),
    ],
    responses: [
      { status: 200, description: 'OK', headers: [ETAG, cacheControl, PREVIEW_CACHE, NOSNIFF] },
      { status: 304, description: 'Not modified: If-None-Match matched the ETag. No body.', headers: [ETAG, cacheControl, PREVIEW_CACHE, NOSNIFF] },
      { status: 400, description: '`size` breaks its rule; the message says which.' },
      { status: 404, description: 'No published icon of that name in that set.' },
      { status: 405, description: 'A method other than GET or HEAD.', headers: [ALLOW] },
    ],
    content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
    keyOptional: true,
  };
}

export function describeIconFiles(options: IconFilesOptions, routes: { svg: string; png: string; preview: string }): ApiDescription {
  const svg: DescribedPath = {
    path: routes.svg,
    operationId: 'getIconSvg',
    tag: 'Files',
    summary: 'An icon’s SVG file, customized',
    description: `The sanitized SVG (no scripts, event handlers or outside references), as \`svg_url\` addresses it. ${ACCESS} Compressed with brotli or gzip when Accept-Encoding asks.`,
    parameters: [...pathParameters, ...customizationParameters(options, false)],
    responses: ownResponses([ETAG, CACHE_CONTROL, X_CACHE, VARY, CONTENT_ENCODING, CSP, NOSNIFF]),
    content: { 'image/svg+xml': { schema: { type: 'string' } } },
    keyOptional: true,
  };
  const png: DescribedPath = {
    path: routes.png,
    operationId: 'getIconPng',
    tag: 'Files',
    summary: 'An icon rendered as PNG',
    description: `A transparent PNG rendered from the (customized) SVG, its longer side \`size\` pixels. ${ACCESS}`,
    parameters: [
      ...pathParameters,
      query('size', `The longer side in pixels, ${options.pngSize.min} to ${options.pngSize.max}.`, { type: 'integer', minimum: options.pngSize.min, maximum: options.pngSize.max, default: options.pngSize.default }),
      ...customizationParameters(options, true),
    ],
    responses: ownResponses([ETAG, CACHE_CONTROL, X_CACHE]),
    content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
    keyOptional: true,
  };
  return {
    paths: [svg, png, describePreview(options, routes.preview)],
    overview: [
      `**Files.** Each icon’s SVG is at \`${routes.svg}\` (the address in \`svg_url\`) and a PNG at \`${routes.png}?size=\`. ${ACCESS} Every icon, premium ones included, has a public PNG preview at \`${routes.preview}\` (the address in \`preview_url\`), at most ${options.preview.maxSize} pixels, for anyone.`,
    ],
  };
}
