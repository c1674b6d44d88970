// Small string helpers shared by the content-type handlers.

/** Whitespace collapsed and trimmed; empty becomes null. */
export function cleanText(value: string | null | undefined): string | null {
  const clean = value?.replace(/\s+/g, " ").trim();
  return clean ? clean : null;
}

/** At most `max` characters, cut at a word boundary with an ellipsis. */
export function truncate(value: string | null | undefined, max: number): string | null {
  const clean = cleanText(value);
  if (!clean || clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, "")}…`;
}

/** The URL's host without a leading "www.", which is what people call a site when it has no name. */
export function hostname(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^www\./, "") || null;
  } catch {
    return null;
  }
}
