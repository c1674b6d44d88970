// The image step of ingestion: fetch the article's images and the preview image through the SSRF guard,
// within a count, a size per image and in all, a time per image and in all; keep raster images only
// (sniffed, not trusted from Content-Type), re-encoded; store them in the blob store; make the card
// thumbnail. Any image that fails for any reason is left out; the step itself never fails.
import type { BlobStore } from "../../../../blobs/port.ts";
import type { Logger } from "../../../../log.ts";
import type { SafeFetch } from "../../../../net/safe-fetch.ts";
import type { MarkdownImage } from "../extract/index.ts";
import { asFetched, type Encoded, type ImageEncoder } from "./encode.ts";
import { mediaPath, rewriteImages } from "./rewrite.ts";
import { dimensionsRefusal, sniffImage } from "./sniff.ts";

export interface ImageLimits {
  maxPerSource: number;
  maxBytes: number;
  maxTotalBytes: number;
  timeoutMs: number;
  totalTimeoutMs: number;
  maxPixels: number;
}

export interface StoredImage {
  name: string;
  blobKey: string;
  contentType: string;
  bytes: number;
  width: number;
  height: number;
  url: string;
}

export interface CollectedImages {
  /** The Markdown with kept images at their media addresses and every other image removed. */
  markdown: string;
  /** Every blob written, the thumbnail included. */
  images: StoredImage[];
  thumbnailKey: string | null;
}

export interface ImageCollectorDeps {
  safeFetch: SafeFetch;
  blobs: BlobStore;
  encoder: ImageEncoder;
  limits: ImageLimits;
  logger: Logger;
}

/** What servers may answer; the bytes decide (SVG and anything else fail the sniff). */
const ACCEPT = ["image/*", "application/octet-stream", "binary/octet-stream"];
const ACCEPT_HEADER = "image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1";
/** Fetches of one source's images at once. */
const PARALLEL = 3;
/** An article image this large or larger may stand for the article when the page names no preview. */
const LARGE = { width: 200, height: 120 };

export function blobKeyOf(sourceId: string, name: string): string {
  return `sources/${sourceId}/${name}`;
}

async function hashName(bytes: Uint8Array, ext: string, prefix = ""): Promise<string> {
  const digest = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
  return `${prefix}${digest.slice(0, 32)}.${ext}`;
}

export function createImageCollector(deps: ImageCollectorDeps) {
  const { limits, logger } = deps;

  return async function collect(input: {
    sourceId: string;
    markdown: string;
    images: readonly MarkdownImage[];
    preview: string | null;
  }): Promise<CollectedImages> {
    const started = performance.now();
    const deadline = AbortSignal.timeout(limits.totalTimeoutMs);
    const left = () => limits.totalTimeoutMs - (performance.now() - started);
    const sharpReady = await deps.encoder.available();

    // The addresses to fetch, in document order, each once; the preview comes on top of the count.
    const urls: string[] = [];
    for (const image of input.images) {
      if (urls.length >= limits.maxPerSource) break;
      if (image.url && !urls.includes(image.url)) urls.push(image.url);
    }
    const preview = sharpReady && input.preview ? input.preview : null;
    const toFetch = preview && !urls.includes(preview) ? [...urls, preview] : urls;

    let totalBytes = 0;
    let reserved = 0;
    const fetched = new Map<string, Encoded>();
    let previewBytes: Uint8Array | undefined;
    const skip = (url: string, why: string) => logger.debug("image left out", { source_id: input.sourceId, url, why });
    const timeLeft = () => Math.max(100, Math.min(limits.timeoutMs, left()));

    async function one(url: string): Promise<void> {
      if (deadline.aborted) return skip(url, "the time for images ran out");
      // Room is booked before the fetch, so parallel fetches never pass the total together.
      const cap = Math.min(limits.maxBytes, limits.maxTotalBytes - totalBytes - reserved);
      if (cap <= 0) return skip(url, "the source's images reached IMAGES_MAX_TOTAL_BYTES");
      reserved += cap;
      try {
        const res = await deps.safeFetch(url, {
          accept: ACCEPT,
          headers: { accept: ACCEPT_HEADER },
          maxBytes: cap,
          timeoutMs: timeLeft(),
          signal: deadline,
        });
        if (res.status < 200 || res.status >= 300) return skip(url, `the server answered ${res.status}`);
        totalBytes += res.body.byteLength;
        const sniffed = sniffImage(res.body);
        if (!sniffed) return skip(url, "not a JPEG, PNG, GIF, WebP or AVIF image");
        const refusal = dimensionsRefusal(sniffed, limits.maxPixels);
        if (refusal) return skip(url, refusal);
        if (url === preview) previewBytes = res.body;
        if (!urls.includes(url)) return; // the preview alone: only its thumbnail is made
        const encoded = sharpReady ? await deps.encoder.article(res.body, timeLeft()) : asFetched(res.body, sniffed);
        if (!encoded) return skip(url, "its size cannot be read without the image library");
        if (deadline.aborted) return skip(url, "the time for images ran out");
        fetched.set(url, encoded);
      } catch (err) {
        skip(url, err instanceof Error ? err.message : String(err));
      } finally {
        reserved -= cap;
      }
    }

    const queue = [...toFetch];
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
        for (let url = queue.shift(); url !== undefined; url = queue.shift()) await one(url);
      }),
    );

    const images: StoredImage[] = [];
    const byUrl = new Map<string, StoredImage>();
    const kept = new Map<string, string>();
    async function store(url: string, e: Encoded, prefix = ""): Promise<StoredImage> {
      const name = await hashName(e.bytes, e.ext, prefix);
      const same = images.find((i) => i.name === name);
      if (same) return same; // the same bytes from another address: one file
      const blobKey = blobKeyOf(input.sourceId, name);
      await deps.blobs.put(blobKey, e.bytes);
      const row = {
        name,
        blobKey,
        contentType: e.contentType,
        bytes: e.bytes.byteLength,
        width: e.width,
        height: e.height,
        url,
      };
      images.push(row);
      return row;
    }
    for (const image of input.images) {
      const encoded = image.url ? fetched.get(image.url) : undefined;
      if (!image.url || !encoded) continue;
      let row = byUrl.get(image.url);
      if (!row) byUrl.set(image.url, (row = await store(image.url, encoded)));
      kept.set(image.raw, mediaPath(input.sourceId, row.name));
    }

    /** From the page's preview image, else from the first large article image kept. */
    async function thumbnail(): Promise<string | null> {
      const large = urls.find((u) => {
        const e = fetched.get(u);
        return e && e.width >= LARGE.width && e.height >= LARGE.height;
      });
      const candidate = previewBytes
        ? { url: preview!, bytes: previewBytes }
        : large
          ? { url: large, bytes: fetched.get(large)!.bytes }
          : null;
      if (!candidate) return null;
      try {
        const thumb = await deps.encoder.thumbnail(candidate.bytes, Math.max(1000, limits.timeoutMs));
        return (await store(candidate.url, thumb, "thumb-")).blobKey;
      } catch (err) {
        skip(candidate.url, `no thumbnail: ${err instanceof Error ? err.message : String(err)}`);
        return null;
      }
    }
    const thumbnailKey = sharpReady ? await thumbnail() : null;

    return { markdown: rewriteImages(input.markdown, input.images, kept), images, thumbnailKey };
  };
}
export type ImageCollector = ReturnType<typeof createImageCollector>;
