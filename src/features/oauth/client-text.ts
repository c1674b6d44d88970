// Text an OAuth client chose for itself (its name, URIs, software id): nothing that reorders or hides
// what the person reads. Bidi overrides (U+202E) can make "Evil" read as a trusted name.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const UNSAFE_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** Control characters, format characters (bidi controls, zero-width ones) and line separators. */
export const hasUnsafeText = (s: string): boolean => UNSAFE.test(s);

/** `s` without them: for showing rows registered before registration refused them. */
export const safeClientText = (s: string): string => s.replace(UNSAFE_ALL, "").trim();
