// Email addresses as account identities: one canonical form per address, so that invisible characters,
// compatibility forms, case and look-alike letters cannot make a second account for the same person.
import { invalid } from "../../errors.ts";

// Format (Cf: zero-width spaces and joiners, soft hyphen, bidi marks and overrides, BOM), control
// characters, line/paragraph separators, and characters that render as nothing (combining grapheme
// joiner, Hangul fillers, variation selectors).
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]|\u034F|\p{Variation_Selector}/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gu");

/** NFKC, then full case folding (ß → ss, Σ/ς → σ), then NFKC again for what folding decomposed. */
function fold(s: string): string {
  return s.normalize("NFKC").toUpperCase().toLowerCase().normalize("NFKC");
}

/**
 * The canonical form of an address: trimmed, NFKC-normalised and case-folded. Refuses invisible and
 * format characters (a validation error on `path`); `stripInvisible` drops them instead, for rows stored
 * before this rule. Does not check the shape of the address.
 */
export function canonicalEmail(raw: string, path = "email", opts: { stripInvisible?: boolean } = {}): string {
  let s = raw.trim();
  if (opts.stripInvisible) s = s.replace(INVISIBLE_ALL, "");
  else if (INVISIBLE.test(s) || INVISIBLE.test(s.normalize("NFKC")))
    throw invalid(
      path,
      "must not contain invisible or formatting characters (such as zero-width spaces, soft hyphens or text-direction marks)",
    );
  const folded = fold(s);
  return opts.stripInvisible ? folded.replace(INVISIBLE_ALL, "") : folded;
}

// Scripts a letter may belong to. Han is shared by Japanese, Korean and Chinese writing (UTS #39's
// augmented script sets), so 日本のメール or 한국漢字 stay one script; anything else must not mix.
const CJK: Record<string, string[]> = {
  Han: ["Jpan", "Kore", "Hanb"],
  Hiragana: ["Jpan"],
  Katakana: ["Jpan"],
  Hangul: ["Kore"],
  Bopomofo: ["Hanb"],
};
const SCRIPTS =
  "Latin Greek Cyrillic Armenian Hebrew Arabic Syriac Thaana Nko Devanagari Bengali Gurmukhi Gujarati Oriya Tamil Telugu Kannada Malayalam Sinhala Thai Lao Tibetan Myanmar Georgian Ethiopic Cherokee Canadian_Aboriginal Ogham Runic Khmer Mongolian Han Hiragana Katakana Hangul Bopomofo Yi Tifinagh Coptic Glagolitic Javanese Balinese Sundanese Vai Adlam Osage Gothic Deseret Limbu Tai_Le New_Tai_Lue Buginese Tai_Tham Lepcha Ol_Chiki Saurashtra Kayah_Li Rejang Cham Tai_Viet Meetei_Mayek Bamum Lisu Samaritan Mandaic Batak Chakma Miao Hanifi_Rohingya"
    .split(" ")
    .map((name) => ({ name, re: new RegExp(`^\\p{Script=${name}}$`, "u") }));
const NEUTRAL = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** The scripts `ch` counts as, or null for digits, punctuation and combining marks (any script). */
function scriptsOf(ch: string): string[] | null {
  if (NEUTRAL.test(ch)) return null;
  const s = SCRIPTS.find((x) => x.re.test(ch));
  if (!s) return ["other"]; // a script not listed: apart from the listed ones, not from one another
  return CJK[s.name] ?? [s.name];
}

/** True when every letter of `part` belongs to one script (UTS #39 single-script). */
export function isSingleScript(part: string): boolean {
  let common: string[] | null = null;
  for (const ch of part) {
    const sets = scriptsOf(ch);
    if (!sets) continue;
    common = common ? common.filter((x) => sets.includes(x)) : sets;
    if (common.length === 0) return false;
  }
  return true;
}

/**
 * Refuses look-alike mixing in a canonical address: the local part, and each label of the domain,
 * must be written in one script (`раypal` with a Cyrillic р is refused; `пример.com` is not).
 */
export function checkEmailScripts(email: string, path = "email"): void {
  const at = email.lastIndexOf("@");
  const parts = [email.slice(0, at), ...email.slice(at + 1).split(".")];
  if (!parts.every(isSingleScript))
    throw invalid(
      path,
      "mixes letters of different scripts (such as Latin with Cyrillic or Greek); write each part of the address in one script",
    );
}
