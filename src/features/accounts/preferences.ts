// How a user reads: the library's view and the reader's typography, kept per user (users.preferences)
// so every browser and device opens the same way. Unknown or out-of-range stored values fall back to
// the defaults, so an old row never breaks a page.
import { t, type Static } from "elysia";
import { Value } from "@sinclair/typebox/value";
import { Int, oneOf } from "../../http/schema.ts";

export const LIBRARY_VIEWS = ["cards", "list"] as const;
export const READER_FONTS = ["serif", "sans"] as const;
export const READER_WIDTHS = ["narrow", "medium", "wide"] as const;
export const READER_THEMES = ["auto", "light", "sepia", "dark"] as const;

const fields = {
  library_view: oneOf(LIBRARY_VIEWS, { description: "The library as preview cards or a compact list" }),
  reader_font: oneOf(READER_FONTS, { description: "The reader's typeface: a serif or a sans" }),
  reader_size: Int({ minimum: 14, maximum: 26, description: "The reader's text size in CSS pixels" }),
  reader_line_height: t.Number({ minimum: 1.2, maximum: 2.2, description: "The reader's line height" }),
  reader_width: oneOf(READER_WIDTHS, {
    description: "The reader's measure: narrow (~55 characters), medium (~65) or wide (~80)",
  }),
  reader_theme: oneOf(READER_THEMES, { description: "`auto` follows the system; light, sepia or dark" }),
  auto_tag: t.Boolean({
    description: "Apply the suggested tags at ingestion instead of offering them (off by default)",
  }),
};

export const PreferencesPublic = t.Object(fields);
export type Preferences = Static<typeof PreferencesPublic>;

export const PreferencesUpdate = t.Partial(t.Object(fields, { additionalProperties: false }), {
  additionalProperties: false,
  minProperties: 1,
});
export type PreferencesUpdate = Static<typeof PreferencesUpdate>;

export const DEFAULT_PREFERENCES: Preferences = {
  library_view: "cards",
  reader_font: "serif",
  reader_size: 19,
  reader_line_height: 1.6,
  reader_width: "medium",
  reader_theme: "auto",
  auto_tag: false,
};

/** The stored JSON as preferences: each valid stored value over the defaults. */
export function parsePreferences(json: string): Preferences {
  let stored: Record<string, unknown> = {};
  try {
    const v = JSON.parse(json) as unknown;
    if (v && typeof v === "object" && !Array.isArray(v)) stored = v as Record<string, unknown>;
  } catch {
    // A damaged value reads as the defaults.
  }
  const out: Record<string, unknown> = { ...DEFAULT_PREFERENCES };
  for (const [key, schema] of Object.entries(fields)) {
    if (key in stored && Value.Check(schema, stored[key])) out[key] = stored[key];
  }
  return out as Preferences;
}
