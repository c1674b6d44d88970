// Parses host spellings (IP literals in every legacy form, bracketed IPv6, host names) into one canonical shape.

export type ParsedHost =
  | { kind: "ipv4"; address: string; value: number }
  | { kind: "ipv6"; address: string; hextets: number[] }
  | { kind: "name"; name: string }
  | { kind: "invalid"; reason: string };

/**
 * Reads a host the way a URL parser and the system resolver would: lowercased, brackets and trailing
 * dots removed, IPv4 in decimal/octal/hex/short forms (`127.1`, `0x7f000001`, `0177.0.0.1`,
 * `2130706433`) and IPv6 in any valid spelling. Anything else that looks like a name is a name.
 */
export function parseHostForCheck(raw: string): ParsedHost {
  const host = raw.trim().toLowerCase();
  if (host === "") return { kind: "invalid", reason: "empty host" };
  if (host.startsWith("[") || host.endsWith("]") || host.includes(":")) {
    const inner = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
    const hextets = parseIPv6(inner);
    if (!hextets) return { kind: "invalid", reason: `"${raw}" is not a valid IPv6 address` };
    return { kind: "ipv6", address: formatIPv6(hextets), hextets };
  }
  const bare = host.replace(/\.+$/, "");
  if (bare === "") return { kind: "invalid", reason: `"${raw}" is not a host` };
  const v4 = parseIPv4(bare);
  if (v4 === "invalid") return { kind: "invalid", reason: `"${raw}" is not a valid IPv4 address` };
  if (v4 !== null) return { kind: "ipv4", address: formatIPv4(v4), value: v4 };
  if (!/^[^\s/\\?#@%[\]:]+$/.test(bare) || bare.split(".").some((label) => label === "")) {
    return { kind: "invalid", reason: `"${raw}" is not a valid host name` };
  }
  return { kind: "name", name: bare };
}

function parseIPv4Part(part: string): number | null {
  let digits = part;
  let radix = 10;
  if (/^0x/.test(digits)) {
    radix = 16;
    digits = digits.slice(2);
  } else if (digits.length > 1 && digits.startsWith("0")) {
    radix = 8;
    digits = digits.slice(1);
  }
  if (digits === "") return radix === 10 ? null : 0;
  const pattern = radix === 16 ? /^[0-9a-f]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!pattern.test(digits)) return null;
  // Values far beyond 2^32 lose precision here but are rejected as out of range either way.
  return parseInt(digits, radix);
}

/**
 * IPv4 as the WHATWG URL parser (and inet_aton) reads it: 1 to 4 dot-separated parts, each decimal,
 * octal (leading 0) or hex (0x); the last part fills the remaining bytes. Returns null for a host
 * that does not end in a number (a name), "invalid" for a number that is not a valid address.
 */
export function parseIPv4(host: string): number | "invalid" | null {
  const parts = host.split(".");
  const last = parts[parts.length - 1] ?? "";
  if (last === "" || (!/^[0-9]+$/.test(last) && parseIPv4Part(last) === null)) return null;
  if (parts.length > 4) return "invalid";
  const numbers = parts.map(parseIPv4Part);
  if (numbers.some((n) => n === null)) return "invalid";
  const values = numbers as number[];
  const tail = values[values.length - 1]!;
  if (values.slice(0, -1).some((n) => n > 255)) return "invalid";
  if (tail >= 256 ** (5 - values.length)) return "invalid";
  let result = tail;
  values.slice(0, -1).forEach((n, i) => {
    result += n * 256 ** (3 - i);
  });
  return result;
}

export function formatIPv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

function parseDottedQuad(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value;
}

function parseGroups(text: string): number[] | null {
  if (text === "") return [];
  const groups = text.split(":");
  const out: number[] = [];
  for (const [i, group] of groups.entries()) {
    if (i === groups.length - 1 && group.includes(".")) {
      const v4 = parseDottedQuad(group);
      if (v4 === null) return null;
      out.push(Math.floor(v4 / 65536), v4 % 65536);
    } else if (/^[0-9a-f]{1,4}$/.test(group)) {
      out.push(parseInt(group, 16));
    } else {
      return null;
    }
  }
  return out;
}

/** IPv6 text (a zone id after % is ignored) to eight 16-bit groups, or null if it is not valid. */
export function parseIPv6(text: string): number[] | null {
  const address = text.toLowerCase().split("%")[0] ?? "";
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0] ?? "");
  const tail = halves.length === 2 ? parseGroups(halves[1] ?? "") : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/** RFC 5952 text: lowercase, no leading zeros, the first longest run of two or more zero groups as "::". */
export function formatIPv6(hextets: readonly number[]): string {
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (hextets[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && hextets[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = hextets.map((h) => h.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLen).join(":")}`;
}
