// Re-encoding with sharp: article images bounded and stripped of metadata, and the card thumbnail.
// sharp is loaded on first use: its decoding runs on libvips threads, not the JS thread, within a pixel
// limit and a time limit. Where sharp cannot load (the compiled binary cannot carry its native parts),
// the encoder says so and ingestion keeps article images as fetched and makes no thumbnail.
import type { Sniffed } from "./sniff.ts";

type Sharp = typeof import("sharp")["default"];

export interface Encoded {
  bytes: Uint8Array;
  contentType: string;
  ext: string;
  width: number;
  height: number;
}

export interface ImageEncoder {
  /** False when sharp could not be loaded: nothing is re-encoded and no thumbnail is made. */
  available(): Promise<boolean>;
  /** At most `ARTICLE_WIDTH` wide, WebP, no metadata (EXIF orientation applied first). */
  article(bytes: Uint8Array, timeoutMs: number): Promise<Encoded>;
  /** The card thumbnail: `THUMB_WIDTH`×`THUMB_HEIGHT`, cropped to fill, WebP. */
  thumbnail(bytes: Uint8Array, timeoutMs: number): Promise<Encoded>;
}

export const ARTICLE_WIDTH = 1600;
export const THUMB_WIDTH = 640;
export const THUMB_HEIGHT = 360;
/** Images decoded at once in this process: each may hold up to maxPixels × 4 bytes while it is. */
const AT_ONCE = 2;

const RASTER_LOADERS = [
  "VipsForeignLoadJpegBuffer",
  "VipsForeignLoadPngBuffer",
  "VipsForeignLoadNsgifBuffer",
  "VipsForeignLoadGifBuffer",
  "VipsForeignLoadWebpBuffer",
  "VipsForeignLoadHeifBuffer",
];

let loaded: Promise<Sharp | null> | undefined;

/** sharp, or null when its native parts are missing (logged once by the caller). */
export function loadSharp(): Promise<Sharp | null> {
  loaded ??= import("sharp").then(
    (m) => {
      const sharp = m.default;
      // libvips' operation cache would keep decoded images after we are done with them.
      sharp.cache(false);
      // Only the raster decoders we accept may run at all (process-wide): SVG, PDF, TIFF and the rest
      // stay blocked even if bytes got past the sniffing.
      sharp.block({ operation: ["VipsForeignLoad"] });
      sharp.unblock({ operation: RASTER_LOADERS });
      return sharp;
    },
    () => null,
  );
  return loaded;
}

function limiter(max: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

export interface EncoderOptions {
  /** Width × height an image may have; sharp refuses larger ones before decoding them. */
  maxPixels: number;
  /** How sharp is found; tests pass one that finds nothing. */
  load?: () => Promise<Sharp | null>;
}

export function createImageEncoder(opts: EncoderOptions): ImageEncoder {
  const load = opts.load ?? loadSharp;
  const gate = limiter(AT_ONCE);

  async function run(
    bytes: Uint8Array,
    timeoutMs: number,
    shape: (img: import("sharp").Sharp) => import("sharp").Sharp,
    animated: boolean,
  ): Promise<Encoded> {
    const sharp = await load();
    if (!sharp) throw new Error("sharp is not available");
    return gate(async () => {
      const img = sharp(bytes, {
        limitInputPixels: opts.maxPixels,
        // A truncated or corrupt image is refused rather than shown half grey.
        failOn: "error",
        animated,
        sequentialRead: true,
      })
        .timeout({ seconds: Math.max(1, Math.ceil(timeoutMs / 1000)) })
        .rotate();
      const { data, info } = await shape(img).webp({ quality: 80, effort: 2 }).toBuffer({ resolveWithObject: true });
      return {
        bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
        contentType: "image/webp",
        ext: "webp",
        width: info.width,
        height: info.pageHeight ?? info.height,
      };
    });
  }

  return {
    available: async () => (await load()) !== null,
    article: (bytes, timeoutMs) =>
      run(bytes, timeoutMs, (img) => img.resize({ width: ARTICLE_WIDTH, withoutEnlargement: true }), true),
    thumbnail: (bytes, timeoutMs) =>
      run(
        bytes,
        timeoutMs,
        (img) => img.resize({ width: THUMB_WIDTH, height: THUMB_HEIGHT, fit: "cover", withoutEnlargement: true }),
        false,
      ),
  };
}

/** The bytes as fetched, for when sharp is not available: the sniffed type and declared size stand. */
export function asFetched(bytes: Uint8Array, s: Sniffed): Encoded | null {
  if (s.width === null || s.height === null) return null;
  return { bytes, contentType: s.type, ext: s.ext, width: s.width, height: s.height };
}
