// The extension's icons, drawn at build time (the encoder is src/png.ts, shared with the web app).
import { encodePng } from "../../src/png.ts";

/** `pixel(x, y)` returns [r, g, b, a] for each pixel of a size × size image. */
export function drawPng(size: number, pixel: (x: number, y: number) => [number, number, number, number]): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) pixels.set(pixel(x, y), (y * size + x) * 4);
  return encodePng(pixels, size);
}

/** The Commonplace icon: a white bookmark on a rounded teal square. */
export function iconPng(size: number): Uint8Array {
  const r = size * 0.2;
  const inside = (x: number, y: number) => {
    const cx = Math.min(Math.max(x, r), size - r);
    const cy = Math.min(Math.max(y, r), size - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
  const left = size * 0.32;
  const right = size * 0.68;
  const top = size * 0.2;
  const bottom = size * 0.8;
  const notch = size * 0.14;
  const bookmark = (x: number, y: number) => {
    if (x < left || x > right || y < top || y > bottom) return false;
    const mid = (left + right) / 2;
    return y < bottom - notch + (Math.abs(x - mid) / (right - mid)) * notch;
  };
  return drawPng(size, (x0, y0) => {
    const x = x0 + 0.5;
    const y = y0 + 0.5;
    if (!inside(x, y)) return [0, 0, 0, 0];
    return bookmark(x, y) ? [255, 255, 255, 255] : [18, 112, 110, 255];
  });
}
