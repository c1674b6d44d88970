// The pieces of the image step on their own: magic-byte sniffing, sharp's bounds, and the Markdown rewrite.
import { describe, expect, test } from "bun:test";
import { markdownImages } from "../extract/index.ts";
import { createImageEncoder, THUMB_HEIGHT, THUMB_WIDTH } from "./encode.ts";
import { mediaPath, rewriteImages } from "./rewrite.ts";
import { dimensionsRefusal, sniffImage } from "./sniff.ts";
import { bombPng, makeImage, SCRIPTED_SVG } from "./testing.ts";

const text = (s: string) => new TextEncoder().encode(s);

describe("sniffImage", () => {
  test.each(["png", "jpeg", "gif", "webp"] as const)("reads a %s by its bytes, with its declared size", async (f) => {
    const s = sniffImage(await makeImage(f, 321, 123));
    expect(s).toMatchObject({ width: 321, height: 123 });
    expect(s?.type).toBe(`image/${f}`);
  });

  test("AVIF is recognised by its brand; its size is left to the decoder", async () => {
    expect(sniffImage(await makeImage("avif", 64, 32))).toEqual({
      type: "image/avif",
      ext: "avif",
      width: null,
      height: null,
    });
  });

  test("SVG, HTML, text and truncated headers are not images", () => {
    expect(sniffImage(text(SCRIPTED_SVG))).toBeNull();
    expect(sniffImage(text("<!doctype html><html><body>hi</body></html>"))).toBeNull();
    expect(sniffImage(text("GIF8"))).toBeNull();
    expect(sniffImage(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]))).toBeNull();
  });

  test("a decompression bomb is refused by its declared size before any decoding", () => {
    const bomb = bombPng(10_000, 10_000);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const s = sniffImage(bomb)!;
    expect(s).toMatchObject({ type: "image/png", width: 10_000, height: 10_000 });
    expect(dimensionsRefusal(s, 40_000_000)).toContain("10000×10000");
    expect(dimensionsRefusal({ ...s, width: 4000, height: 4000 }, 40_000_000)).toBeNull();
  });
});

describe("the encoder (sharp)", () => {
  const encoder = createImageEncoder({ maxPixels: 1_000_000 });

  test("article images become WebP no wider than 1600 px; thumbnails 640×360", async () => {
    const wide = await encoder.article(await makeImage("jpeg", 3000, 300), 10_000);
    expect(wide).toMatchObject({ contentType: "image/webp", width: 1600, height: 160 });
    expect(sniffImage(wide.bytes)?.type).toBe("image/webp");
    const thumb = await encoder.thumbnail(await makeImage("png", 900, 900), 10_000);
    expect([thumb.width, thumb.height]).toEqual([THUMB_WIDTH, THUMB_HEIGHT]);
  });

  test("sharp itself refuses an image over the pixel limit and an SVG, even if they got past the sniffing", async () => {
    await expect(encoder.article(bombPng(2_000, 2_000), 10_000)).rejects.toThrow(/pixel limit/i);
    await expect(encoder.article(text(SCRIPTED_SVG), 10_000)).rejects.toThrow();
  });

  test("without sharp the encoder says so", async () => {
    const none = createImageEncoder({ maxPixels: 1_000_000, load: async () => null });
    expect(await none.available()).toBe(false);
    await expect(none.thumbnail(await makeImage("png", 10, 10), 1000)).rejects.toThrow(/not available/);
  });
});

describe("markdownImages and rewriteImages", () => {
  const md = [
    "# Title",
    "",
    "![A heron](https://img.example/heron.jpg) and [![logo](/logo.png)](https://site.example/)",
    "",
    "- ![in a list](https://img.example/list.png)",
    "",
    "| a |",
    "| --- |",
    "| ![cell](https://img.example/cell.png) |",
    "",
    "![ref][r] ![data](data:image/png;base64,AAAA)",
    "",
    "[r]: https://img.example/ref.png",
    "",
    "```",
    "not ![an image](https://img.example/code.png)",
    "```",
  ].join("\n");

  test("every image the Markdown shows is found, resolved against the page; code is not Markdown", () => {
    const found = markdownImages(md, "https://site.example/post/1");
    expect(found.map((i) => i.url)).toEqual([
      "https://img.example/heron.jpg",
      "https://site.example/logo.png",
      "https://img.example/list.png",
      "https://img.example/cell.png",
      "https://img.example/ref.png",
      null,
    ]);
    expect(found[0]).toMatchObject({ raw: "![A heron](https://img.example/heron.jpg)", alt: "A heron" });
  });

  test("kept images point at their media address; the others, their alt text and links left empty go", () => {
    const found = markdownImages(md, "https://site.example/post/1");
    const kept = new Map([[found[0]!.raw, mediaPath("src_1", "abc.webp")]]);
    const out = rewriteImages(md, found, kept);
    expect(out).toContain("![A heron](/api/v1/sources/src_1/media/abc.webp) and");
    expect(out).not.toContain("logo");
    expect(out).not.toContain("https://site.example/)");
    expect(out).not.toMatch(/in a list|cell\.png|!\[ref\]|data:image/);
    expect(out).toContain("not ![an image](https://img.example/code.png)");
    // What is left shows no image outside this site.
    expect(markdownImages(out, "https://site.example/").map((i) => i.url)).toEqual([
      "https://site.example/api/v1/sources/src_1/media/abc.webp",
    ]);
  });

  test("alt text keeps its brackets escaped", () => {
    const src = "![a [b] c](https://img.example/x.png)";
    const found = markdownImages(src, "https://site.example/");
    const out = rewriteImages(src, found, new Map([[found[0]!.raw, "/m.webp"]]));
    expect(markdownImages(out, "https://site.example/")[0]?.alt).toBe(found[0]!.alt);
  });
});
