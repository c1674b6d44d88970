// The one parser of media types (Content-Type and the like): the type without parameters, lower case.

/** "Text/HTML; charset=utf-8" → "text/html"; a missing header → "". */
export function mediaType(header: string | null | undefined): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

/** application/json and any +json type (problem+json, merge-patch+json, …). */
export const isJsonType = (type: string): boolean => type === "application/json" || type.endsWith("+json");
