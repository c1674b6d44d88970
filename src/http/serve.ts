// The options main.ts hands to Bun.serve: the app behind the peer-address hook, and Bun's own
// limits set so that ours (which answer problem+json with a request id) always come first.
import type { Config } from "../config.ts";
import { rememberClientAddress } from "./client-address.ts";
import type { Logger } from "../log.ts";
import { metaOf } from "./context.ts";
import { isValidHost } from "./path.ts";
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
    // The same for every connection, signed in or not; an event stream lengthens its own once the
    // caller is accepted (see setIdleTimeout), never by path before authentication.
    idleTimeout: config.http.idleTimeoutSeconds,
    fetch(
      request: Request,
      server: { requestIP(r: Request): { address: string } | null; timeout(r: Request, seconds: number): void },
    ): Promise<Response> {
      // A Host that is not a URI host leaves Bun's request.url without its scheme and host (a bare
      // path), which no guard or route may be asked to interpret. HTTP/1.1 requires the header;
      // an HTTP/1.0 request without one is refused the same way (every URL we build needs a host).
      if (!isValidHost(request.headers.get("host")) || !request.url.startsWith("http")) {
        return Promise.resolve(
          problemResponse({
            code: "bad_request",
            detail:
              "The Host header must be a host name, an IPv4 address or a bracketed IPv6 address, with an optional port",
            requestId: metaOf(request).id,
            headers: { connection: "close" },
          }),
        );
      }
      // The per-address sign-in limit needs the peer address, which app.handle alone cannot see.
      rememberClientAddress(request, server.requestIP(request)?.address);
      metaOf(request).setIdleTimeout = (seconds) => server.timeout(request, seconds);
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
