// One contract, two adapters: the fs store in a temp dir and the S3 store against a local s3rver.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { createFsBlobStore } from "./fs.ts";
import { type BlobBody, type BlobStore, InvalidBlobKey } from "./port.ts";
import { createS3BlobStore } from "./s3.ts";

const T = 30_000;
const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) % 256);
const read = async (b: BlobBody | null) => new Uint8Array(await new Response(b!.body).arrayBuffer());

function contract(name: string, open: () => Promise<BlobStore>) {
  describe(`BlobStore contract: ${name}`, () => {
    let store: BlobStore;
    beforeAll(async () => {
      store = await open();
    }, T);

    test(
      "put then get returns the same bytes, and stat their size",
      async () => {
        const data = bytes(70_000);
        await store.put("podcasts/a.mp3", data);
        const got = await store.get("podcasts/a.mp3");
        expect(got!.size).toBe(data.length);
        expect(await read(got)).toEqual(data);
        const s = await store.stat("podcasts/a.mp3");
        expect(s!.size).toBe(data.length);
        expect(s!.etag.length).toBeGreaterThan(0);
        expect(s!.lastModified).toBeInstanceOf(Date);
      },
      T,
    );

    test(
      "moveIn makes a local file the blob and removes the file",
      async () => {
        const data = bytes(20_000);
        const local = join(mkdtempSync(join(tmpdir(), "cp-blob-move-")), "episode.part");
        await Bun.write(local, data);
        await store.moveIn("podcasts/moved.mp3", local);
        expect(await read(await store.get("podcasts/moved.mp3"))).toEqual(data);
        expect(await Bun.file(local).exists()).toBe(false);
      },
      T,
    );

    test(
      "a Range returns only those bytes, inclusive of both ends",
      async () => {
        const data = bytes(10_000);
        await store.put("r/file.bin", data);
        const part = await store.get("r/file.bin", { start: 100, end: 199 });
        expect(part!.size).toBe(100);
        expect(await read(part)).toEqual(data.subarray(100, 200));
        const last = await store.get("r/file.bin", { start: 9_999, end: 9_999 });
        expect(await read(last)).toEqual(data.subarray(9_999));
        await expect(store.get("r/file.bin", { start: 10, end: 10_000 })).rejects.toThrow(RangeError);
      },
      T,
    );

    test(
      "put from a stream and from a Blob; a second put replaces the content and the etag",
      async () => {
        const data = bytes(50_000);
        await store.put("s/stream.bin", new Blob([data]).stream());
        expect(await read(await store.get("s/stream.bin"))).toEqual(data);
        const before = await store.stat("s/stream.bin");
        const other = bytes(1234).reverse();
        await store.put("s/stream.bin", new Blob([other]));
        expect(await read(await store.get("s/stream.bin"))).toEqual(other);
        expect((await store.stat("s/stream.bin"))!.etag).not.toBe(before!.etag);
      },
      T,
    );

    test(
      "a missing key: get and stat give null, delete is fine",
      async () => {
        expect(await store.get("nope/none.mp3")).toBeNull();
        expect(await store.stat("nope/none.mp3")).toBeNull();
        await store.delete("nope/none.mp3");
      },
      T,
    );

    test(
      "delete removes the blob",
      async () => {
        await store.put("d/gone.bin", bytes(10));
        await store.delete("d/gone.bin");
        expect(await store.stat("d/gone.bin")).toBeNull();
        expect(await store.get("d/gone.bin")).toBeNull();
      },
      T,
    );

    test(
      "list names every blob under a prefix, nested ones too, with when each was written",
      async () => {
        const before = Date.now() - 60_000;
        await store.put("l/one.bin", bytes(3));
        await store.put("l/deep/two.bin", bytes(4));
        await store.put("l2/not-under.bin", bytes(5));
        const listed: { key: string; lastModified: Date }[] = [];
        for await (const b of store.list("l/")) listed.push(b);
        expect(listed.map((b) => b.key).sort()).toEqual(["l/deep/two.bin", "l/one.bin"]);
        for (const b of listed) expect(b.lastModified.getTime()).toBeGreaterThan(before);
        const none: string[] = [];
        for await (const b of store.list("nothing-here/")) none.push(b.key);
        expect(none).toEqual([]);
        await expect(store.list("../")[Symbol.asyncIterator]().next()).rejects.toThrow(InvalidBlobKey);
      },
      T,
    );

    // s3rver makes its continuation tokens with DES, which Bun's crypto does not have: against it a
    // listing longer than one page (1,000 keys) fails on the server's side, so only the fs store runs this;
    // s3-list.test.ts pages the S3 store against a local peer that speaks ListObjectsV2.
    test.skipIf(name !== "fs")(
      "list goes through more blobs than one S3 page holds",
      async () => {
        for (let i = 0; i < 1_005; i += 67)
          await Promise.all(Array.from({ length: 67 }, (_, j) => store.put(`many/${i + j}.bin`, bytes(1))));
        let n = 0;
        for await (const _ of store.list("many/")) n++;
        expect(n).toBe(1_005);
      },
      T,
    );

    test(
      "invalid keys are refused by every method",
      async () => {
        for (const key of ["", "../x", "a/../../x", "/etc/passwd", "a//b", "a/./b", "a\\b", "C:/x", "a\nb"]) {
          await expect(store.put(key, bytes(1))).rejects.toThrow(InvalidBlobKey);
          await expect(store.get(key)).rejects.toThrow(InvalidBlobKey);
          await expect(store.stat(key)).rejects.toThrow(InvalidBlobKey);
          await expect(store.delete(key)).rejects.toThrow(InvalidBlobKey);
        }
      },
      T,
    );
  });
}

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), "commonplace-blobs-"));
  dirs.push(d);
  return d;
};
let server: S3rver | undefined;
afterAll(async () => {
  await server?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

contract("fs", async () => createFsBlobStore(temp()));

contract("s3 (s3rver)", async () => {
  server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory: temp(),
    silent: true,
    configureBuckets: [{ name: "blobs" }],
  });
  // s3rver's winston logger trips over a hoisted old safe-stable-stringify under Bun even when
  // silent; a silent logger skips formatting altogether.
  (server as unknown as { logger: { silent: boolean } }).logger.silent = true;
  const { port } = await server.run();
  return readAfterWrite(
    createS3BlobStore({
      endpoint: `http://127.0.0.1:${port}`,
      bucket: "blobs",
      region: "us-east-1",
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
    }),
  );
});

/**
 * S3 is read-after-write consistent; s3rver is not quite: it answers a PUT once the bytes are handed to
 * its file stream, before they reach the file, so a read right after can see a short object on a busy
 * machine. The stand-in's writes wait (bounded) until the object shows its whole size, as S3's would.
 */
function readAfterWrite(store: BlobStore): BlobStore {
  const whole = async (key: string, size: number) => {
    for (const until = Date.now() + 10_000; Date.now() < until; await Bun.sleep(5))
      if ((await store.stat(key))?.size === size) return;
  };
  return {
    ...store,
    async put(key, data) {
      let streamed = 0;
      const counted =
        data instanceof ReadableStream
          ? data.pipeThrough(
              new TransformStream<Uint8Array, Uint8Array>({
                transform(chunk, out) {
                  streamed += chunk.byteLength;
                  out.enqueue(chunk);
                },
              }),
            )
          : data;
      await store.put(key, counted);
      await whole(key, data instanceof ReadableStream ? streamed : data instanceof Blob ? data.size : data.byteLength);
    },
    async moveIn(key, localPath) {
      const size = Bun.file(localPath).size;
      await store.moveIn(key, localPath);
      await whole(key, size);
    },
  };
}
