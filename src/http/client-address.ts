// The client's address: recorded by the server entry point, read by whoever rate-limits or logs by peer.
import { metaOf } from "./context.ts";

// The server entry point may record the peer address of a request (Bun knows it; app.handle does not).
// It lives in the request's meta, which a copy of the request (a buffered chunked body) shares.
export function rememberClientAddress(request: Request, address: string | undefined | null): void {
  if (address) metaOf(request).peer = address;
}

export interface PeerSource {
  requestIP(request: Request): { address: string } | null;
}

/** The TCP peer's address when known. X-Forwarded-For is not trusted: any client can set it. */
export function clientAddress(request: Request, server?: PeerSource | null): string | undefined {
  const known = metaOf(request).peer;
  if (known) return known;
  try {
    return server?.requestIP(request)?.address ?? undefined;
  } catch {
    return undefined;
  }
}
