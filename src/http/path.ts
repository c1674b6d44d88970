// The path of a request as the router reads it, and the Host check the server entry point applies.
// Every guard that decides by path (API key, body limits, page or problem errors) uses routerPath, so
// a guard can never judge one path while Elysia routes the request to another.
import { isIPv6 } from "node:net";

/**
 * The path exactly as Elysia 1.4 computes it for routing (`u.indexOf('/', 11)` in its compiled
 * handler, for the default `standardHostname`): it skips the first 11 characters of the URL, so for
 * a host of three characters or fewer ("http://ab/x/api/v1/…") it starts at a later slash than the
 * URL's own path. Mirrored here character for character, including substring's treatment of -1;
 * a test holds it to what the router really matches.
 */
export function routerPathOf(url: string): string {
  const s = url.indexOf("/", 11);
  const qi = url.indexOf("?", s + 1);
  return url.substring(s, qi === -1 ? undefined : qi);
}

export const routerPath = (request: Request): string => routerPathOf(request.url);

// RFC 3986 host: reg-name (unreserved, pct-encoded, sub-delims; an IPv4 address is one) or an IP
// literal in brackets, then an optional port. Empty is refused: every URL we build needs a host.
const REG_NAME_HOST = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+(?::[0-9]*)?$/;
const IP_LITERAL_HOST = /^\[([0-9A-Fa-f:.]+)\](?::[0-9]*)?$/;

/** True for a Host header value RFC 3986 allows as host[:port] (IPvFuture literals are not accepted). */
export function isValidHost(host: string | null): boolean {
  if (!host) return false;
  if (REG_NAME_HOST.test(host)) return true;
  const literal = IP_LITERAL_HOST.exec(host);
  return literal !== null && isIPv6(literal[1]!);
}
