// The app's PNG icons (home screen, splash screen, Apple touch icon), drawn in code from the same mark
// as the SVG favicon: no image files to keep in step and nothing extra for the compiled binary to embed.
// Each size is drawn once, on first request, and kept.
import { encodePng } from "../../png.ts";

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

const drawn = new Map<string, Uint8Array>();

/** The PNG named `name` (a key of ICONS), drawn on first use. */
export function iconPng(name: string): Uint8Array | undefined {
  const spec = ICONS[name];
  if (!spec) return undefined;
  let png = drawn.get(name);
  if (!png) drawn.set(name, (png = encodePng(drawIcon(spec), spec.size)));
  return png;
}
