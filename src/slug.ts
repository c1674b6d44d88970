// File-name slugs, shared by the notebook export and note downloads (API and web pages).

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/** A file-name slug safe on every OS: ASCII, no reserved names, no trailing dots, ≤ 80 chars. */
export function slugify(text: string, fallback: string): string {
  const base = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "");
  const slug = base || fallback;
  return WINDOWS_RESERVED.test(slug) ? `${slug}-file` : slug;
}
