// Personal key format: cpk_ + 40 base62 random + 6 base62 CRC32 of the random part (offline-checkable).
const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_RE = /^cpk_([0-9A-Za-z]{40})([0-9A-Za-z]{6})$/;

function base62(n: number, width: number): string {
  let out = "";
  let v = n;
  for (let i = 0; i < width; i++) {
    out = B62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

function checksum(body: string): string {
  return base62(Bun.hash.crc32(body) >>> 0, 6);
}

export function generateKey(): string {
  // Rejection sampling keeps every base62 character equally likely.
  const chars: string[] = [];
  while (chars.length < 40) {
    for (const b of crypto.getRandomValues(new Uint8Array(64))) {
      if (b < 248 && chars.length < 40) chars.push(B62[b % 62]!);
    }
  }
  const body = chars.join("");
  return `cpk_${body}${checksum(body)}`;
}

export type KeyCheck = "ok" | "malformed" | "bad_checksum";

export function checkKey(key: string): KeyCheck {
  const m = KEY_RE.exec(key);
  if (!m) return "malformed";
  return checksum(m[1]!) === m[2] ? "ok" : "bad_checksum";
}

/** What the UI shows: the prefix and the last four characters. */
export function keyHint(key: string): string {
  return `${key.slice(0, 8)}…${key.slice(-4)}`;
}
