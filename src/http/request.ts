// Request id, body-size and content-type guards, and one JSON log line per request.
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { metaOf } from "./context.ts";

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

export function requestPlugin(opts: { logger: Logger; maxBodyBytes: number }) {
  return new Elysia({ name: "request" })
    .onRequest(({ request, set }) => {
      const meta = metaOf(request);
      const sent = request.headers.get("x-request-id");
      if (sent && REQUEST_ID_RE.test(sent)) meta.id = sent;
      set.headers["x-request-id"] = meta.id;
      if (!BODY_METHODS.has(request.method)) return;
      const path = request.url.slice(request.url.indexOf("/", 8));
      const length = Number(request.headers.get("content-length") ?? "0");
      if (length > opts.maxBodyBytes && !path.startsWith("/api/webhooks/")) {
        throw new AppError("payload_too_large", `The body is ${length} bytes; the limit is ${opts.maxBodyBytes}`);
      }
      // The JSON API accepts JSON only; MCP, OAuth and the web app parse their own bodies.
      if (path.startsWith("/api/v1/") && (length > 0 || request.headers.has("transfer-encoding") || request.body !== null)) {
        const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
        if (type !== "application/json" && !type.endsWith("+json")) {
          throw new AppError("unsupported_media_type", `Send the body as application/json, not ${type || "an unlabelled body"}`);
        }
      }
    })
    .onAfterResponse({ as: "global" }, ({ request, set }) => {
      const meta = metaOf(request);
      const path = request.url.slice(request.url.indexOf("/", 8)).split("?")[0];
      opts.logger.info("request", {
        request_id: meta.id,
        method: request.method,
        path,
        status: typeof set.status === "number" ? set.status : 200,
        ms: Math.round((performance.now() - meta.start) * 100) / 100,
        user_id: meta.actor?.userId,
      });
    });
}
