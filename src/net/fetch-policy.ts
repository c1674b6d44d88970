// What may be fetched: the one rule behind saves, imports, feeds, workflow requests and safeFetch itself.
// Built once from ALLOW_PRIVATE_NETWORK and ALLOWED_HOSTS; a URL is checked here before any DNS question,
// and every address a host name resolves to is checked by the same rule when it is fetched.
import { classifyAddress, describe, type AddressVerdict } from "./address.ts";
import type { FetchErrorCode } from "./errors.ts";
import { parseHostForCheck } from "./ip.ts";

export interface FetchPolicyOptions {
  /** Open loopback, private, link-local and other non-public addresses (cloud metadata stays closed). */
  allowPrivateNetwork: boolean;
  /** Host names trusted whatever they resolve to, and IP addresses allowed even if not public. */
  allowedHosts: readonly string[];
}

export interface FetchPolicy {
  readonly allowPrivateNetwork: boolean;
  /** Canonical names (lower case, no trailing dot) and addresses from allowedHosts. */
  readonly names: ReadonlySet<string>;
  readonly ips: ReadonlySet<string>;
}

/** Throws a TypeError naming an entry that is neither a host name nor an IP address. */
export function createFetchPolicy(opts: FetchPolicyOptions): FetchPolicy {
  const names = new Set<string>();
  const ips = new Set<string>();
  for (const entry of opts.allowedHosts) {
    const parsed = parseHostForCheck(entry);
    if (parsed.kind === "name") names.add(parsed.name);
    else if (parsed.kind === "invalid")
      throw new TypeError(`allowedHosts: "${entry}" is not a host name or IP address`);
    else ips.add(parsed.address);
  }
  return Object.freeze({ allowPrivateNetwork: opts.allowPrivateNetwork, names, ips });
}

export function isLocalhostName(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost");
}

/**
 * null when the address may be dialled; the verdict that refuses it otherwise. `trustedName`: the
 * address came from resolving a name listed in allowedHosts.
 */
export function addressRefusal(policy: FetchPolicy, address: string, trustedName: boolean): AddressVerdict | null {
  if (policy.ips.has(address)) return null;
  const verdict = classifyAddress(address);
  if (verdict.category === "public") return null;
  // Cloud metadata is never part of "the LAN": only an explicit IP entry opens it.
  if (verdict.category === "metadata") return verdict;
  return policy.allowPrivateNetwork || trustedName ? null : verdict;
}

export type FetchableUrl =
  | { ok: true; url: URL }
  | {
      ok: false;
      code: Extract<FetchErrorCode, "invalid_url" | "unsupported_protocol" | "blocked_address">;
      reason: string;
    };

/**
 * Whether a URL may be fetched, as far as it can be told without DNS: http(s), a valid host, an IP
 * literal the policy allows, no localhost name unless trusted. A host name that passes is checked
 * again, address by address, when safeFetch resolves it.
 */
export function checkFetchableUrl(input: string | URL, policy: FetchPolicy): FetchableUrl {
  let url: URL;
  try {
    url = typeof input === "string" ? new URL(input) : input;
  } catch {
    return { ok: false, code: "invalid_url", reason: "not an absolute URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return {
      ok: false,
      code: "unsupported_protocol",
      reason: `${url.protocol} URLs are not fetched (only http and https)`,
    };
  const host = parseHostForCheck(url.hostname);
  if (host.kind === "invalid") return { ok: false, code: "invalid_url", reason: `invalid host: ${host.reason}` };
  if (host.kind === "name") {
    if (isLocalhostName(host.name) && !policy.names.has(host.name) && !policy.allowPrivateNetwork)
      return { ok: false, code: "blocked_address", reason: `refused: ${host.name} is a loopback host name` };
    return { ok: true, url };
  }
  const verdict = addressRefusal(policy, host.address, false);
  if (verdict)
    return { ok: false, code: "blocked_address", reason: `refused: ${host.address} is ${describe(verdict)}` };
  return { ok: true, url };
}
