// A minimal PNG encoder (8-bit RGBA, no filtering) for icons drawn at build time.
import { deflateSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** `pixel(x, y)` returns [r, g, b, a] for each pixel of a size × size image. */
export function encodePng(size: number, pixel: (x: number, y: number) => [number, number, number, number]): Uint8Array {
  const raw = new Uint8Array(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    for (let x = 0; x < size; x++) raw.set(pixel(x, y), row + 1 + x * 4);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header.set([8, 6, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", new Uint8Array(deflateSync(raw))),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
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
  return encodePng(size, (x0, y0) => {
    const x = x0 + 0.5;
    const y = y0 + 0.5;
    if (!inside(x, y)) return [0, 0, 0, 0];
    return bookmark(x, y) ? [255, 255, 255, 255] : [18, 112, 110, 255];
  });
}
