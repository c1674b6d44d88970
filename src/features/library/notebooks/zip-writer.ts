// A streaming ZIP writer: entries are compressed one at a time as the reader pulls, so memory holds
// one entry plus the central directory (a few dozen bytes per entry), never the whole archive.
// ZIP64 records are added only when the archive needs them (over 65,535 entries or 4 GiB).

export interface ZipEntry {
  /** Path inside the archive, `/`-separated; written as UTF-8. */
  name: string;
  data: string | Uint8Array<ArrayBuffer>;
}

interface Written {
  name: Uint8Array;
  dir: boolean;
  crc: number;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

const UTF8_NAMES = 0x0800;
const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const encoder = new TextEncoder();

/** MS-DOS time and date fields (two-second resolution, local time, as every unzip expects). */
function dosTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getFullYear());
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

function localHeader(e: Written, when: { time: number; date: number }): Uint8Array {
  const out = new Uint8Array(30 + e.name.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x04034b50, true);
  v.setUint16(4, 20, true); // version needed: 2.0 (deflate)
  v.setUint16(6, UTF8_NAMES, true);
  v.setUint16(8, e.method, true);
  v.setUint16(10, when.time, true);
  v.setUint16(12, when.date, true);
  v.setUint32(14, e.crc, true);
  v.setUint32(18, e.compressedSize, true);
  v.setUint32(22, e.size, true);
  v.setUint16(26, e.name.length, true);
  v.setUint16(28, 0, true);
  out.set(e.name, 30);
  return out;
}

function centralHeader(e: Written, when: { time: number; date: number }): Uint8Array {
  // Only the offset can pass 4 GiB (one entry is held in memory, so its sizes cannot).
  const zip64 = e.offset >= MAX32;
  const out = new Uint8Array(46 + e.name.length + (zip64 ? 12 : 0));
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x02014b50, true);
  v.setUint16(4, (3 << 8) | 45, true); // made by: Unix, spec 4.5
  v.setUint16(6, zip64 ? 45 : 20, true);
  v.setUint16(8, UTF8_NAMES, true);
  v.setUint16(10, e.method, true);
  v.setUint16(12, when.time, true);
  v.setUint16(14, when.date, true);
  v.setUint32(16, e.crc, true);
  v.setUint32(20, e.compressedSize, true);
  v.setUint32(24, e.size, true);
  v.setUint16(28, e.name.length, true);
  v.setUint16(30, zip64 ? 12 : 0, true);
  // Unix mode in the high half (a regular file rw-r--r--, or a directory rwxr-xr-x plus the DOS directory bit).
  v.setUint32(38, e.dir ? ((0o040755 << 16) | 0x10) >>> 0 : (0o100644 << 16) >>> 0, true);
  v.setUint32(42, zip64 ? MAX32 : e.offset, true);
  out.set(e.name, 46);
  if (zip64) {
    const at = 46 + e.name.length;
    v.setUint16(at, 0x0001, true); // ZIP64 extended information: just the offset
    v.setUint16(at + 2, 8, true);
    v.setBigUint64(at + 4, BigInt(e.offset), true);
  }
  return out;
}

/** End of central directory, preceded by the ZIP64 record and locator when counts or offsets overflow. */
function endRecords(count: number, cdOffset: number, cdSize: number): Uint8Array {
  const zip64 = count > MAX16 || cdOffset >= MAX32 || cdSize >= MAX32;
  const out = new Uint8Array((zip64 ? 56 + 20 : 0) + 22);
  const v = new DataView(out.buffer);
  let at = 0;
  if (zip64) {
    v.setUint32(0, 0x06064b50, true);
    v.setBigUint64(4, 44n, true); // size of the rest of this record
    v.setUint16(12, 45, true);
    v.setUint16(14, 45, true);
    v.setBigUint64(24, BigInt(count), true);
    v.setBigUint64(32, BigInt(count), true);
    v.setBigUint64(40, BigInt(cdSize), true);
    v.setBigUint64(48, BigInt(cdOffset), true);
    v.setUint32(56, 0x07064b50, true); // locator
    v.setBigUint64(64, BigInt(cdOffset + cdSize), true);
    v.setUint32(72, 1, true);
    at = 76;
  }
  v.setUint32(at, 0x06054b50, true);
  v.setUint16(at + 8, Math.min(count, MAX16), true);
  v.setUint16(at + 10, Math.min(count, MAX16), true);
  v.setUint32(at + 12, Math.min(cdSize, MAX32), true);
  v.setUint32(at + 16, Math.min(cdOffset, MAX32), true);
  return out;
}

export interface ZipStreamOptions {
  /** Deflate level 0–9; 0 stores. Default 6. */
  level?: number;
  /** The entries' modification time. Default: now. */
  modified?: Date;
  /** Write a directory entry before the first file in each folder. Default true. */
  folders?: boolean;
}

/**
 * A ZIP archive as a byte stream, pulled entry by entry from `entries` (a sync or async iterator,
 * e.g. a generator reading the database page by page). Each entry is deflated whole (or stored when
 * that is not smaller), so its sizes and CRC-32 go straight into its local header.
 */
export function zipStream(
  entries: Iterator<ZipEntry> | AsyncIterator<ZipEntry>,
  opts: ZipStreamOptions = {},
): ReadableStream<Uint8Array> {
  const level = opts.level ?? 6;
  const when = dosTime(opts.modified ?? new Date());
  const written: Written[] = [];
  let offset = 0;

  const folders = new Set<string>();

  /** Directory entries ("sources/") before the first file in them, as zip tools and jszip write them. */
  function folderBytes(name: string): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (let cut = name.indexOf("/"); cut !== -1; cut = name.indexOf("/", cut + 1)) {
      const folder = name.slice(0, cut + 1);
      if (folders.has(folder)) continue;
      folders.add(folder);
      const e: Written = {
        name: encoder.encode(folder),
        dir: true,
        crc: 0,
        method: 0,
        compressedSize: 0,
        size: 0,
        offset,
      };
      const header = localHeader(e, when);
      written.push(e);
      offset += header.length;
      out.push(header);
    }
    return out;
  }

  function entryBytes(entry: ZipEntry): Uint8Array[] {
    if (entry.name.endsWith("/")) return folderBytes(entry.name);
    const parents = opts.folders === false ? [] : folderBytes(entry.name);
    const data = typeof entry.data === "string" ? encoder.encode(entry.data) : entry.data;
    const deflated = level > 0 ? Bun.deflateSync(data, { level: level as 1 }) : data;
    const stored = deflated.length >= data.length;
    const body = stored ? data : deflated;
    if (body.length >= MAX32) throw new Error(`zip entry ${entry.name} is too large`);
    const e: Written = {
      name: encoder.encode(entry.name),
      dir: false,
      crc: Bun.hash.crc32(data),
      method: stored ? 0 : 8,
      compressedSize: body.length,
      size: data.length,
      offset,
    };
    const header = localHeader(e, when);
    written.push(e);
    offset += header.length + body.length;
    return [...parents, header, body];
  }

  function* directory(): Generator<Uint8Array> {
    const start = offset;
    let size = 0;
    let chunk: Uint8Array[] = [];
    let chunkBytes = 0;
    for (const e of written) {
      const h = centralHeader(e, when);
      chunk.push(h);
      chunkBytes += h.length;
      size += h.length;
      if (chunkBytes >= 64 * 1024) {
        yield Buffer.concat(chunk);
        chunk = [];
        chunkBytes = 0;
      }
    }
    chunk.push(endRecords(written.length, start, size));
    yield Buffer.concat(chunk);
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await entries.next();
      if (next.done) {
        for (const bytes of directory()) controller.enqueue(bytes);
        controller.close();
        return;
      }
      for (const bytes of entryBytes(next.value)) controller.enqueue(bytes);
    },
    async cancel() {
      await entries.return?.();
    },
  });
}
