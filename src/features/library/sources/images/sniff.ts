// What an image's bytes are, read from their magic numbers (never from Content-Type alone), and the
// dimensions their header declares, read without decoding: a decompression bomb is refused here.
// Only raster types pass: SVG is text that can carry script, and everything else is refused too.

export type RasterType = "image/jpeg" | "image/png" | "image/gif" | "image/webp" | "image/avif";

export interface Sniffed {
  type: RasterType;
  ext: "jpg" | "png" | "gif" | "webp" | "avif";
  /** As the header declares; null when this reader cannot tell (AVIF: its decoder checks). */
  width: number | null;
  height: number | null;
}

const ascii = (b: Uint8Array, at: number, length: number) => String.fromCharCode(...b.subarray(at, at + length));
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32be = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;

function png(b: Uint8Array): Sniffed | null {
  if (b.length < 24 || ascii(b, 12, 4) !== "IHDR") return null;
  return { type: "image/png", ext: "png", width: u32be(b, 16), height: u32be(b, 20) };
}

function gif(b: Uint8Array): Sniffed | null {
  if (b.length < 10) return null;
  return { type: "image/gif", ext: "gif", width: u16le(b, 6), height: u16le(b, 8) };
}

// Start-of-frame markers carry the dimensions; C4 (Huffman tables), C8 and CC (arithmetic) do not.
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpeg(b: Uint8Array): Sniffed | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // image data before any frame header
    if (isSof(marker)) return { type: "image/jpeg", ext: "jpg", height: u16be(b, at + 5), width: u16be(b, at + 7) };
    at += 2 + u16be(b, at + 2);
  }
  return null;
}

function webp(b: Uint8Array): Sniffed | null {
  if (b.length < 30) return null;
  const chunk = ascii(b, 12, 4);
  const base = { type: "image/webp", ext: "webp" } as const;
  if (chunk === "VP8 ") return { ...base, width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { ...base, width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") return { ...base, width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return null;
}

function avif(b: Uint8Array): Sniffed | null {
  const size = u32be(b, 0);
  if (size < 16 || size > b.length || size > 4096) return null;
  for (let at = 8; at + 4 <= size; at += 4) {
    if (at === 12) continue; // minor version
    const brand = ascii(b, at, 4);
    if (brand === "avif" || brand === "avis") return { type: "image/avif", ext: "avif", width: null, height: null };
  }
  return null;
}

/** The raster type of these bytes and its declared size, or null for anything else (SVG, HTML, text). */
export function sniffImage(b: Uint8Array): Sniffed | null {
  if (b.length < 12) return null;
  if (b[0] === 0x89 && ascii(b, 1, 7) === "PNG\r\n\x1a\n") return png(b);
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a") return gif(b);
  if (ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return webp(b);
  if (ascii(b, 4, 4) === "ftyp") return avif(b);
  return null;
}

/** Why these dimensions are refused, or null when they may be decoded. */
export function dimensionsRefusal(s: Sniffed, maxPixels: number): string | null {
  if (s.width === null || s.height === null) return null;
  if (s.width === 0 || s.height === 0) return "it declares no size";
  const pixels = s.width * s.height;
  return pixels > maxPixels ? `it declares ${s.width}×${s.height} pixels (more than ${maxPixels})` : null;
}
