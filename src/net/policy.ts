// Decides which addresses a host may be reached at: checks the URL by the fetch policy, resolves names once
// and checks every answer by the same policy.
import { lookup as dnsLookup } from "node:dns/promises";
import { describe } from "./address.ts";
import { FetchError } from "./errors.ts";
import { addressRefusal, checkFetchableUrl, type FetchPolicy } from "./fetch-policy.ts";
import { parseHostForCheck } from "./ip.ts";

export interface LookupAddress {
  address: string;
  family: number;
}
export type LookupFn = (host: string) => Promise<LookupAddress[]>;

export interface HostPolicyOptions {
  policy: FetchPolicy;
  lookup?: LookupFn;
}

/** A host checked and resolved: connect only to `addresses`; `name` is set when the URL named a host. */
export interface ResolvedHost {
  name?: string;
  addresses: string[];
}

const systemLookup: LookupFn = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Rejects as soon as the signal aborts, with its reason; DNS lookups cannot be cancelled otherwise. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export function createHostPolicy(opts: HostPolicyOptions) {
  const { policy } = opts;
  const lookup = opts.lookup ?? systemLookup;

  async function resolveName(name: string, href: string, signal: AbortSignal): Promise<LookupAddress[]> {
    let records: LookupAddress[];
    try {
      records = await untilAborted(lookup(name), signal);
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      const code = (err as { code?: unknown }).code;
      throw new FetchError(
        "dns_failure",
        `could not resolve ${name}${typeof code === "string" ? ` (${code})` : ""}`,
        href,
        { cause: err },
      );
    }
    if (records.length === 0) throw new FetchError("dns_failure", `${name} resolved to no address`, href);
    return records;
  }

  /** The URL passes the fetch policy, and so does every address its host resolves to. */
  async function resolve(url: URL, href: string, signal: AbortSignal): Promise<ResolvedHost> {
    const checked = checkFetchableUrl(url, policy);
    if (!checked.ok) throw new FetchError(checked.code, checked.reason, href);
    const host = parseHostForCheck(url.hostname);
    if (host.kind === "invalid") throw new FetchError("invalid_url", `invalid host: ${host.reason}`, href);
    if (host.kind !== "name") return { addresses: [host.address] };
    const trusted = policy.names.has(host.name);
    const addresses: string[] = [];
    for (const record of await resolveName(host.name, href, signal)) {
      const parsed = parseHostForCheck(record.address);
      if (parsed.kind !== "ipv4" && parsed.kind !== "ipv6") {
        throw new FetchError(
          "dns_failure",
          `${host.name} resolved to "${record.address}", which is not an IP address`,
          href,
        );
      }
      const verdict = addressRefusal(policy, parsed.address, trusted);
      if (verdict) {
        throw new FetchError(
          "blocked_address",
          `refused: ${host.name} resolves to ${parsed.address}, ${describe(verdict)}`,
          href,
        );
      }
      if (!addresses.includes(parsed.address)) addresses.push(parsed.address);
    }
    return { name: host.name, addresses };
  }

  return { resolve };
}
export type HostPolicy = ReturnType<typeof createHostPolicy>;
