// The options main.ts hands to Bun.serve: the app behind the peer-address hook, and Bun's own
// limits set so that ours (which answer problem+json with a request id) always come first.
import type { Config } from "../config.ts";
import { isEventStreamRequest } from "../features/events/stream.ts";
import { rememberClientAddress } from "../features/web/http.ts";
import type { Logger } from "../log.ts";
import { problemResponse } from "./problem.ts";

/**
 * Bun's parser limit on the request line and headers, raised by the start scripts with
 * `--max-http-header-size` (a process flag, not a serve option): MAX_HEADER_BYTES stays below it,
 * so our 431 answers first. Past this size Bun closes the connection with a bare 431 itself.
 */
export const RUNTIME_HEADER_LIMIT = 65536;

export function serveOptions(app: { handle(request: Request): Promise<Response> }, config: Config, logger: Logger) {
  return {
    port: config.port,
    hostname: config.hostname,
    // Bun answers a body over this limit with an empty 413 before our code sees the request. Every
    // body is bounded by our own checks instead (declared Content-Length before reading, bytes
    // counted while reading a chunked body), so Bun's limit is set out of reach.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch(
      request: Request,
      server: { requestIP(r: Request): { address: string } | null; timeout(r: Request, seconds: number): void },
    ): Promise<Response> {
      // The per-address sign-in limit needs the peer address, which app.handle alone cannot see.
      rememberClientAddress(request, server.requestIP(request)?.address);
      // An event stream is quiet between heartbeats for longer than Bun's default idle timeout.
      if (isEventStreamRequest(request)) server.timeout(request, 0);
      return app.handle(request);
    },
    // Last resort (app.handle already turns every error into problem+json): never Bun's own page.
    error(error: Error): Response {
      const requestId = `req_${crypto.randomUUID().replaceAll("-", "")}`;
      logger.error("unhandled server error", {
        request_id: requestId,
        error: { message: error.message, stack: error.stack },
      });
      return problemResponse({
        code: "internal_error",
        detail: "Something went wrong on our side; the request id identifies it in our logs",
        requestId,
      });
    },
  };
}
