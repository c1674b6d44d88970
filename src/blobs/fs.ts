// BlobStore on the local disk (the default): each key is a file under one root directory.
import { chmod, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ulid } from "../ids.ts";
import { type BlobListing, type BlobStat, type BlobStore, checkKey, checkRange } from "./port.ts";

// Blobs are users' files (podcast audio): readable by this user only, whatever the umask.
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

export function createFsBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => join(root, checkKey(key));

  async function statOf(path: string): Promise<BlobStat | null> {
    try {
      const s = await stat(path);
      if (!s.isFile()) return null;
      return {
        size: s.size,
        etag: `"${s.size.toString(16)}-${Math.trunc(s.mtimeMs).toString(16)}"`,
        lastModified: s.mtime,
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
  }

  async function put(key: string, data: Uint8Array | ReadableStream<Uint8Array> | Blob): Promise<void> {
    const path = pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR });
    // Written beside the target and renamed over it: a reader never sees half a file.
    const tmp = `${path}.${ulid()}.tmp`;
    try {
      if (data instanceof ReadableStream) await Bun.write(tmp, new Response(data));
      else await Bun.write(tmp, data);
      await chmod(tmp, PRIVATE_FILE);
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  return {
    kind: "fs",
    put,
    async moveIn(key, localPath) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR });
      try {
        // The file was made elsewhere (an encoder's output): private before it is in place.
        await chmod(localPath, PRIVATE_FILE);
        await rename(localPath, path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
        // Another file system: copy (atomically, through put), then drop the local file.
        await put(key, Bun.file(localPath));
        await rm(localPath, { force: true });
      }
    },
    async get(key, range) {
      const path = pathOf(key);
      const s = await statOf(path);
      if (!s) return null;
      const file = Bun.file(path);
      if (!range) return { body: file, size: s.size };
      checkRange(range, s.size);
      return { body: file.slice(range.start, range.end + 1), size: range.end - range.start + 1 };
    },
    stat: async (key) => statOf(pathOf(key)),
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async *list(prefix) {
      yield* walk(root, checkKey(prefix.replace(/\/+$/, "")));
    },
  };
}

/** The files under `root/dir`, depth first, a directory read at a time; a missing directory has none. */
async function* walk(root: string, dir: string): AsyncGenerator<BlobListing> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(join(root, dir), { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return;
    throw err;
  }
  for (const e of entries) {
    const key = `${dir}/${e.name}`;
    if (e.isDirectory()) yield* walk(root, key);
    else if (e.isFile()) {
      // Gone between the listing and the stat (deleted meanwhile): not listed.
      const s = await stat(join(root, key)).catch(() => null);
      if (s) yield { key, lastModified: s.mtime };
    }
  }
}
