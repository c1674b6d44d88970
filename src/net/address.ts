// Classifies IP addresses: public, private/special-purpose (opened by allowPrivateNetwork) or cloud metadata.
import { formatIPv4, parseHostForCheck } from "./ip.ts";

/** "metadata" stays closed even when the LAN is open; only listing its IP in allowedHosts opens it. */
export type AddressCategory = "public" | "private" | "metadata";

export interface AddressVerdict {
  category: AddressCategory;
  /** Reads after "is": "a loopback address". */
  label?: string;
  range?: string;
}

interface Range {
  base: number;
  bits: number;
  label: string;
  range: string;
  category?: AddressCategory;
}

function v4(cidr: string, label: string, category: AddressCategory = "private"): Range {
  const [ip = "", bits = "32"] = cidr.split("/");
  const parsed = parseHostForCheck(ip);
  if (parsed.kind !== "ipv4") throw new Error(`bad range ${cidr}`);
  return { base: parsed.value, bits: Number(bits), label, range: cidr, category };
}

// First match wins, so the single metadata addresses come before the ranges that contain them.
const V4_RANGES: readonly Range[] = [
  v4("169.254.169.254/32", "the cloud metadata address", "metadata"),
  v4("169.254.170.2/32", "a cloud container metadata address", "metadata"),
  v4("100.100.100.200/32", "a cloud metadata address", "metadata"),
  v4("192.0.0.192/32", "a cloud metadata address", "metadata"),
  v4("0.0.0.0/8", 'a "this network" address'),
  v4("10.0.0.0/8", "a private address"),
  v4("100.64.0.0/10", "a carrier-grade NAT address"),
  v4("127.0.0.0/8", "a loopback address"),
  v4("169.254.0.0/16", "a link-local address"),
  v4("172.16.0.0/12", "a private address"),
  v4("192.0.0.0/24", "an IETF protocol assignment address"),
  v4("192.0.2.0/24", "a documentation address"),
  v4("192.88.99.0/24", "a 6to4 relay anycast address"),
  v4("192.168.0.0/16", "a private address"),
  v4("198.18.0.0/15", "a benchmarking address"),
  v4("198.51.100.0/24", "a documentation address"),
  v4("203.0.113.0/24", "a documentation address"),
  v4("224.0.0.0/4", "a multicast address"),
  v4("255.255.255.255/32", "the broadcast address"),
  v4("240.0.0.0/4", "a reserved address"),
];

const PUBLIC: AddressVerdict = { category: "public" };

export function classifyIPv4(value: number): AddressVerdict {
  for (const r of V4_RANGES) {
    const size = 2 ** (32 - r.bits);
    if (Math.floor(value / size) === Math.floor(r.base / size)) {
      return { category: r.category ?? "private", label: r.label, range: r.range };
    }
  }
  return PUBLIC;
}

const word = (hi: number, lo: number) => hi * 65536 + lo;

/** An IPv6 address that carries an IPv4 address inherits its verdict, described as the wrapper. */
function embedding(kind: string, inner: number, alwaysBlocked: boolean): AddressVerdict {
  const verdict = classifyIPv4(inner);
  if (verdict.category === "public" && !alwaysBlocked) return PUBLIC;
  const suffix = verdict.label ? `, ${verdict.label}` : "";
  const category = verdict.category === "metadata" ? "metadata" : "private";
  return { category, label: `${kind} ${formatIPv4(inner)}${suffix}` };
}

function blocked(label: string, range: string, category: AddressCategory = "private"): AddressVerdict {
  return { category, label, range };
}

export function classifyIPv6(h: readonly number[]): AddressVerdict {
  const g = (i: number) => h[i] ?? 0;
  const zeroUpTo = (n: number) => h.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return blocked("the unspecified address", "::/128");
  if (zeroUpTo(7) && g(7) === 1) return blocked("the IPv6 loopback address", "::1/128");
  if (zeroUpTo(5) && g(5) === 0xffff) return embedding("an IPv4-mapped address of", word(g(6), g(7)), true);
  if (zeroUpTo(6)) return embedding("an IPv4-compatible address of", word(g(6), g(7)), true);
  if (zeroUpTo(4) && g(4) === 0xffff && g(5) === 0)
    return embedding("an IPv4-translated address of", word(g(6), g(7)), true);
  if (g(0) === 0x64 && g(1) === 0xff9b && g(2) === 0 && g(3) === 0 && g(4) === 0 && g(5) === 0) {
    return embedding("a NAT64 address of", word(g(6), g(7)), false);
  }
  if (g(0) === 0x64 && g(1) === 0xff9b && g(2) === 1) return blocked("a local-use NAT64 address", "64:ff9b:1::/48");
  if (g(0) === 0x100 && g(1) === 0 && g(2) === 0 && g(3) === 0) return blocked("a discard-only address", "100::/64");
  if (g(0) === 0x2001 && g(1) === 0) return teredo(h);
  if (g(0) === 0x2001 && g(1) === 0xdb8) return blocked("a documentation address", "2001:db8::/32");
  if (g(0) === 0x2001 && g(1) === 2 && g(2) === 0) return blocked("a benchmarking address", "2001:2::/48");
  if (g(0) === 0x2001 && (g(1) & 0xfff0) === 0x10) return blocked("a deprecated ORCHID address", "2001:10::/28");
  if (g(0) === 0x2002) return embedding("a 6to4 address of", word(g(1), g(2)), false);
  if (g(0) === 0x3fff && g(1) < 0x1000) return blocked("a documentation address", "3fff::/20");
  if (g(0) === 0xfd00 && g(1) === 0xec2 && h.slice(2, 7).every((x) => x === 0) && g(7) === 0x254) {
    return blocked("the cloud metadata address", "fd00:ec2::254/128", "metadata");
  }
  if ((g(0) & 0xfe00) === 0xfc00) return blocked("a unique local address", "fc00::/7");
  if ((g(0) & 0xffc0) === 0xfe80) return blocked("a link-local address", "fe80::/10");
  if ((g(0) & 0xffc0) === 0xfec0) return blocked("a site-local address", "fec0::/10");
  if ((g(0) & 0xff00) === 0xff00) return blocked("a multicast address", "ff00::/8");
  if ((g(0) & 0xe000) !== 0x2000) return blocked("not a global unicast address", "outside 2000::/3");
  return PUBLIC;
}

/** Teredo carries the server's IPv4 in groups 2–3 and the client's, bit-inverted, in groups 6–7. */
function teredo(h: readonly number[]): AddressVerdict {
  const server = word(h[2] ?? 0, h[3] ?? 0);
  const client = word((h[6] ?? 0) ^ 0xffff, (h[7] ?? 0) ^ 0xffff);
  const client4 = embedding("a Teredo address embedding client", client, false);
  if (client4.category !== "public") return client4;
  return embedding("a Teredo address embedding server", server, false);
}

/** Verdict for an IP literal in any spelling; a host name or garbage counts as blocked. */
export function classifyAddress(ip: string): AddressVerdict & { address?: string } {
  const parsed = parseHostForCheck(ip);
  if (parsed.kind === "ipv4") return { ...classifyIPv4(parsed.value), address: parsed.address };
  if (parsed.kind === "ipv6") return { ...classifyIPv6(parsed.hextets), address: parsed.address };
  return { category: "private", label: "not an IP address" };
}

export function describe(verdict: AddressVerdict): string {
  return verdict.range ? `${verdict.label} (${verdict.range})` : (verdict.label ?? "a public address");
}

/** Pure check of one IP address against the default policy (no allow-list, LAN closed). */
export function checkAddress(ip: string): { blocked: boolean; reason?: string } {
  const verdict = classifyAddress(ip);
  if (verdict.category === "public") return { blocked: false };
  return { blocked: true, reason: describe(verdict) };
}
