// The S3 store's listing across pages, against a local HTTP peer that answers ListObjectsV2 the way S3
// does (1,000 keys a page at most, a continuation token to the next). The contract test's s3rver cannot
// page (its tokens need DES, which Bun's crypto lacks), so this peer speaks just that one request.
import { afterAll, expect, test } from "bun:test";
import { createS3BlobStore } from "./s3.ts";

const KEYS = Array.from({ length: 2_345 }, (_, i) => `sources/src_${String(i).padStart(5, "0")}/image.webp`);
const PAGE = 1_000;
const seen: { prefix: string | null; token: string | null; listType: string | null }[] = [];

const xml = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;");
const peer = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const url = new URL(req.url);
    const q = url.searchParams;
    if (req.method !== "GET" || (url.pathname !== "/blobs/" && url.pathname !== "/blobs"))
      return new Response("not here", { status: 400 });
    const prefix = q.get("prefix");
    const token = q.get("continuation-token");
    seen.push({ prefix, token, listType: q.get("list-type") });
    const under = KEYS.filter((k) => k.startsWith(prefix ?? ""));
    const start = token ? Number(token.replace("page-", "")) : 0;
    const page = under.slice(start, start + PAGE);
    const truncated = start + PAGE < under.length;
    const body = `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>blobs</Name><Prefix>${xml(prefix ?? "")}</Prefix><KeyCount>${page.length}</KeyCount>
  <MaxKeys>${PAGE}</MaxKeys><IsTruncated>${truncated}</IsTruncated>
  ${token ? `<ContinuationToken>${xml(token)}</ContinuationToken>` : ""}
  ${truncated ? `<NextContinuationToken>page-${start + PAGE}</NextContinuationToken>` : ""}
  ${page
    .map(
      (k, i) =>
        `<Contents><Key>${xml(k)}</Key><LastModified>2026-01-0${1 + (i % 9)}T10:00:00.000Z</LastModified><ETag>"e"</ETag><Size>3</Size><StorageClass>STANDARD</StorageClass></Contents>`,
    )
    .join("\n")}
</ListBucketResult>`;
    return new Response(body, { headers: { "content-type": "application/xml" } });
  },
});
afterAll(() => peer.stop(true));

test("list follows S3's continuation tokens to the last page, each key once with its date", async () => {
  const store = createS3BlobStore({
    endpoint: `http://127.0.0.1:${peer.port}`,
    bucket: "blobs",
    region: "us-east-1",
    accessKeyId: "local",
    secretAccessKey: "local-secret",
  });
  const listed: { key: string; lastModified: Date }[] = [];
  for await (const b of store.list("sources/")) listed.push(b);
  expect(listed.map((b) => b.key)).toEqual(KEYS);
  expect(listed[0]!.lastModified.toISOString()).toBe("2026-01-01T10:00:00.000Z");
  expect(listed[1_001]!.lastModified.toISOString()).toBe("2026-01-02T10:00:00.000Z");
  // Three requests: the first without a token, then each with the token the page before handed out.
  expect(seen.map((s) => s.token)).toEqual([null, "page-1000", "page-2000"]);
  expect(seen.every((s) => s.prefix === "sources/" && s.listType === "2")).toBe(true);
});
