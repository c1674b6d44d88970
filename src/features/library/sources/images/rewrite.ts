// The archived copy's Markdown refers to images by same-origin addresses only: each kept image points at
// its media address, every other image is removed (with its alt text), and links left empty go too.
import type { MarkdownImage } from "../extract/index.ts";

/** The API address of a kept image; the web reader maps it to its own session-authenticated path. */
export function mediaPath(sourceId: string, name: string): string {
  return `/api/v1/sources/${sourceId}/media/${name}`;
}

const escapeAlt = (alt: string) => alt.replace(/\s*\n\s*/g, " ").replace(/([[\]\\])/g, "\\$1");

/** `kept`: the raw Markdown of each kept image → its address. */
export function rewriteImages(markdown: string, images: readonly MarkdownImage[], kept: ReadonlyMap<string, string>) {
  if (images.length === 0) return markdown;
  // Longest first, so an image's text is never replaced inside a longer one's.
  const ordered = [...images].sort((a, b) => b.raw.length - a.raw.length);
  let out = markdown;
  for (const image of ordered) {
    const target = kept.get(image.raw);
    out = out.replaceAll(image.raw, target ? `![${escapeAlt(image.alt)}](${target})` : "");
  }
  return (
    out
      // A link whose only content was a removed image would be an invisible link.
      .replace(/\[\s*\]\([^()\s]*\)/g, "")
      .replace(/[ \t]+$/gm, "")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  );
}
