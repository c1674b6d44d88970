// The app's PNG icons (home screen, splash screen, Apple touch icon), drawn in code from the same mark
// as the SVG favicon: no image files to keep in step and nothing extra for the compiled binary to embed.
// Each size is drawn once, on first request, and kept.
import { deflateSync } from "node:zlib";

const ACCENT: Rgba = [0x29, 0x52, 0xcc, 255];
const PAGE: Rgba = [255, 255, 255, 255];
const FOLD: Rgba = [0xb8, 0xc8, 0xff, 255];
type Rgba = [number, number, number, number];
type Pt = [number, number];

// The favicon's shapes in its 64-unit box (see FAVICON_SVG in favicon.ts).
const SHEET: Pt[] = [
  [17, 12],
  [39, 12],
  [48, 21],
  [48, 52],
  [17, 52],
];
const CORNER: Pt[] = [
  [39, 12],
  [48, 21],
  [39, 21],
];
const LINES: [Pt, Pt][] = [
  [
    [24, 30],
    [41, 30],
  ],
  [
    [24, 37],
    [41, 37],
  ],
  [
    [24, 44],
    [35, 44],
  ],
];
const STROKE = 3.5;

export interface IconSpec {
  size: number;
  /** "any": a rounded tile on transparency; "full": a square tile (maskable, Apple), mark scaled by `scale`. */
  shape: "any" | "full";
  scale: number;
}

/** The icons the app serves, by file name. The maskable one keeps the mark inside the 80 % safe circle. */
export const ICONS: Record<string, IconSpec> = {
  "icon-192.png": { size: 192, shape: "any", scale: 1 },
  "icon-512.png": { size: 512, shape: "any", scale: 1 },
  "maskable-512.png": { size: 512, shape: "full", scale: 0.8 },
  "apple-touch-icon.png": { size: 180, shape: "full", scale: 0.9 },
};

/** Convex polygon, vertices in clockwise order on screen (y down). */
function inPolygon(p: Pt, poly: Pt[]): boolean {
  for (let i = 0; i < poly.length; i++) {
    const [ax, ay] = poly[i]!;
    const [bx, by] = poly[(i + 1) % poly.length]!;
    if ((bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) < 0) return false;
  }
  return true;
}

function inCapsule(p: Pt, [a, b]: [Pt, Pt], r: number): boolean {
  const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)));
  const [x, y] = [a[0] + t * dx - p[0], a[1] + t * dy - p[1]];
  return x * x + y * y <= r * r;
}

function inRoundedSquare([x, y]: Pt, size: number, r: number): boolean {
  if (x < 0 || y < 0 || x > size || y > size) return false;
  const cx = Math.min(Math.max(x, r), size - r);
  const cy = Math.min(Math.max(y, r), size - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** The colour at a point of the 64-unit box, or null where the icon is transparent. */
function colourAt(p: Pt, spec: IconSpec): Rgba | null {
  if (spec.shape === "any" ? !inRoundedSquare(p, 64, 14) : p[0] < 0 || p[1] < 0 || p[0] > 64 || p[1] > 64) return null;
  // The mark is scaled about the tile's centre.
  const q: Pt = [32 + (p[0] - 32) / spec.scale, 32 + (p[1] - 32) / spec.scale];
  if (LINES.some((l) => inCapsule(q, l, STROKE / 2))) return ACCENT;
  if (inPolygon(q, CORNER)) return FOLD;
  if (inPolygon(q, SHEET)) return PAGE;
  return ACCENT;
}

/**
 * RGBA pixels. A pixel whose corners and centre fall on one colour is that colour; one on an edge is
 * the average of 4×4 samples (anti-aliased), so only edges pay for sampling.
 */
export function drawIcon(spec: IconSpec): Uint8Array {
  const { size } = spec;
  const out = new Uint8Array(size * size * 4);
  const n = 4;
  const unit = 64 / size;
  const at = (x: number, y: number) => colourAt([x * unit, y * unit], spec);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const i = (py * size + px) * 4;
      const centre = at(px + 0.5, py + 0.5);
      const flat =
        at(px, py) === centre &&
        at(px + 1, py) === centre &&
        at(px, py + 1) === centre &&
        at(px + 1, py + 1) === centre;
      if (flat) {
        if (centre) out.set(centre, i);
        continue;
      }
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = at(px + (sx + 0.5) / n, py + (sy + 0.5) / n);
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 255;
        }
      }
      const covered = a / 255;
      if (covered) [out[i], out[i + 1], out[i + 2]] = [r / covered, g / covered, b / covered];
      out[i + 3] = Math.round(a / (n * n));
    }
  }
  return out;
}

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

/** A truecolour-with-alpha PNG of square RGBA pixels. */
export function encodePng(pixels: Uint8Array, size: number): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter method, no interlace
  const rows = new Uint8Array(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rows.set(pixels.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", new Uint8Array(deflateSync(rows, { level: 9 }))),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const drawn = new Map<string, Uint8Array>();

/** The PNG named `name` (a key of ICONS), drawn on first use. */
export function iconPng(name: string): Uint8Array | undefined {
  const spec = ICONS[name];
  if (!spec) return undefined;
  let png = drawn.get(name);
  if (!png) drawn.set(name, (png = encodePng(drawIcon(spec), spec.size)));
  return png;
}
