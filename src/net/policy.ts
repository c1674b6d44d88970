// Decides which addresses a host may be reached at: resolves names once and checks every answer.
import { lookup as dnsLookup } from "node:dns/promises";
import { classifyAddress, describe, type AddressVerdict } from "./address.ts";
import { FetchError } from "./errors.ts";
import { parseHostForCheck } from "./ip.ts";

export interface LookupAddress {
  address: string;
  family: number;
}
export type LookupFn = (host: string) => Promise<LookupAddress[]>;

export interface HostPolicyOptions {
  allowPrivateNetwork: boolean;
  allowedHosts: readonly string[];
  lookup?: LookupFn;
}

/** A host checked and resolved: connect only to `addresses`; `name` is set when the URL named a host. */
export interface ResolvedHost {
  name?: string;
  addresses: string[];
}

const systemLookup: LookupFn = (host) => dnsLookup(host, { all: true, verbatim: true });

function isLocalhostName(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost");
}

function splitAllowedHosts(entries: readonly string[]) {
  const names = new Set<string>();
  const ips = new Set<string>();
  for (const entry of entries) {
    const parsed = parseHostForCheck(entry);
    if (parsed.kind === "name") names.add(parsed.name);
    else if (parsed.kind === "invalid")
      throw new TypeError(`allowedHosts: "${entry}" is not a host name or IP address`);
    else ips.add(parsed.address);
  }
  return { names, ips };
}

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
  const allowed = splitAllowedHosts(opts.allowedHosts);
  const lookup = opts.lookup ?? systemLookup;

  /** null when the address may be used; the verdict that refuses it otherwise. */
  function refusal(address: string, trustedName: boolean): AddressVerdict | null {
    if (allowed.ips.has(address)) return null;
    const verdict = classifyAddress(address);
    if (verdict.category === "public") return null;
    // Cloud metadata is never part of "the LAN": only an explicit IP entry opens it.
    if (verdict.category === "metadata") return verdict;
    return opts.allowPrivateNetwork || trustedName ? null : verdict;
  }

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

  async function resolve(hostname: string, href: string, signal: AbortSignal): Promise<ResolvedHost> {
    const host = parseHostForCheck(hostname);
    if (host.kind === "invalid") throw new FetchError("invalid_url", `invalid host: ${host.reason}`, href);
    if (host.kind !== "name") {
      const verdict = refusal(host.address, false);
      if (verdict) throw new FetchError("blocked_address", `refused: ${host.address} is ${describe(verdict)}`, href);
      return { addresses: [host.address] };
    }
    const trusted = allowed.names.has(host.name);
    if (isLocalhostName(host.name) && !trusted && !opts.allowPrivateNetwork) {
      throw new FetchError("blocked_address", `refused: ${host.name} is a loopback host name`, href);
    }
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
      const verdict = refusal(parsed.address, trusted);
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
