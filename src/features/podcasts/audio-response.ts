// An episode's MP3 as an HTTP response, whole or one byte range: shared by the API and the web app.
import { AppError } from "../../errors.ts";
import { parseRange } from "./range.ts";
import type { PodcastsService } from "./service.ts";

type AudioFile = Awaited<ReturnType<PodcastsService["audioFile"]>>;

function disposition(filename: string, type: "inline" | "attachment"): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** The audio file, whole or one byte range, with the headers players rely on to seek. */
export async function audioResponse(
  request: Request,
  f: AudioFile,
  opts: { attachment?: boolean } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "audio/mpeg",
    "accept-ranges": "bytes",
    etag: f.etag,
    "last-modified": f.lastModified.toUTCString(),
    "cache-control": "private, max-age=86400",
    "content-disposition": disposition(f.filename, opts.attachment ? "attachment" : "inline"),
  };
  const ifRange = request.headers.get("if-range");
  // A Range under an If-Range that no longer matches means "the file changed: send all of it".
  const rangeHeader = ifRange !== null && ifRange !== f.etag ? null : request.headers.get("range");
  const range = parseRange(rangeHeader, f.size);
  if (range.kind === "unsatisfiable") {
    throw new AppError("range_not_satisfiable", `The range "${rangeHeader}" does not fit a file of ${f.size} bytes`, {
      headers: { "content-range": `bytes */${f.size}`, "accept-ranges": "bytes" },
    });
  }
  if (range.kind === "full" && request.headers.get("if-none-match") === f.etag)
    return new Response(null, { status: 304, headers });
  if (range.kind === "full") {
    const { body } = await f.open();
    return new Response(body, { status: 200, headers: { ...headers, "content-length": String(f.size) } });
  }
  const length = range.end - range.start + 1;
  const { body } = await f.open({ start: range.start, end: range.end });
  return new Response(body, {
    status: 206,
    headers: {
      ...headers,
      "content-range": `bytes ${range.start}-${range.end}/${f.size}`,
      "content-length": String(length),
    },
  });
}
