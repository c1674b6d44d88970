// A kept image of a source as an HTTP response, shared by the API and the web app: the type it was
// stored as, never sniffed by the browser, private to its owner, and cached for as long as its name lasts.
import type { SourceMediaFile } from "./service.ts";

/**
 * `immutable`: the address names the bytes (a media name is a hash of them). The thumbnail's fixed
 * address (/sources/{id}/image) changes its bytes when the source is fetched again, so it is cached for
 * a day and revalidated by its ETag (the hash) after that.
 */
export async function mediaResponse(request: Request, file: SourceMediaFile, cache: "immutable" | "revalidate") {
  const etag = `"${file.name.replace(/\.[a-z0-9]+$/, "")}"`;
  const headers: Record<string, string> = {
    "content-type": file.contentType,
    "x-content-type-options": "nosniff",
    "cache-control": cache === "immutable" ? "private, max-age=31536000, immutable" : "private, max-age=86400",
    etag,
    // Opened on its own, an image is still a document of this origin: give it no powers at all.
    "content-security-policy": "default-src 'none'; sandbox",
    "content-disposition": "inline",
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  const { body, size } = await file.open();
  return new Response(body, { status: 200, headers: { ...headers, "content-length": String(size) } });
}
