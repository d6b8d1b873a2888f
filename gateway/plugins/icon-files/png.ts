// PNG thumbnails rendered from the (customized) SVG by resvg (@resvg/resvg-js: Rust, its binary
// in the npm package), on libuv's thread pool so the event loop keeps serving meanwhile. No
// system fonts are loaded: icons are shapes, and a font scan costs a render hundreds of ms.
import { renderAsync } from '@resvg/resvg-js';

/** A PNG of `svg` whose longer side is `size` pixels. */
export async function renderPng(svg: string, size: number, box: { width: number; height: number }): Promise<Buffer> {
  const fitTo = box.width >= box.height ? { mode: 'width' as const, value: size } : { mode: 'height' as const, value: size };
  const image = await renderAsync(svg, { fitTo, font: { loadSystemFonts: false }, background: 'rgba(0,0,0,0)' });
  return image.asPng();
}
