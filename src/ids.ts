// Typed, prefixed, time-sortable ids (ULID body) from one map, so every id says what it names.
const PREFIXES = {
  user: "usr",
  key: "key",
  session: "ses",
  source: "src",
  notebook: "nb",
  note: "note",
  highlight: "hl",
  podcast: "pod",
  workflow: "wf",
  run: "run",
  step: "step",
  job: "job",
  event: "evt",
  token: "whk",
  delivery: "dlv",
  feed: "feed",
  chunk: "chk",
  ledger: "cred",
  oauthClient: "cli",
  oauthGrant: "grant",
  request: "req",
  email: "mail",
  import: "imp",
  qualityRun: "sqr",
} as const;

export type IdKind = keyof typeof PREFIXES;
const ENC = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

let lastTime = 0;
let lastRandom: Uint8Array = new Uint8Array(10);

/** ULID: 48-bit ms time + 80 random bits, monotonic within one millisecond. */
export function ulid(now = Date.now()): string {
  let rand: Uint8Array;
  if (now === lastTime) {
    rand = lastRandom;
    for (let i = 9; i >= 0; i--) {
      if (rand[i]! < 255) {
        rand[i]!++;
        break;
      }
      rand[i] = 0;
    }
  } else {
    rand = crypto.getRandomValues(new Uint8Array(10));
    lastTime = now;
  }
  lastRandom = rand;
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ENC[t % 32] + time;
    t = Math.floor(t / 32);
  }
  // 80 random bits as two 40-bit halves: exact in a double, no BigInt on the hot path.
  let r = "";
  for (const off of [0, 5]) {
    let v = 0;
    for (let i = 0; i < 5; i++) v = v * 256 + rand[off + i]!;
    let part = "";
    for (let i = 0; i < 8; i++) {
      part = ENC[v % 32] + part;
      v = Math.floor(v / 32);
    }
    r += part;
  }
  return time + r;
}

export function newId(kind: IdKind): string {
  return `${PREFIXES[kind]}_${ulid()}`;
}

export function idPrefix(kind: IdKind): string {
  return `${PREFIXES[kind]}_`;
}

export function isId(kind: IdKind, value: string): boolean {
  return (
    value.startsWith(`${PREFIXES[kind]}_`) && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value.slice(PREFIXES[kind].length + 1))
  );
}
