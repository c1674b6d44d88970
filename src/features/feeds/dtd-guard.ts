// Finds XML that declares entities (a DTD internal subset, <!ENTITY>), which feeds refuse rather than expand.

// CDATA sections and comments may quote markup; only live markup counts.
const QUOTED_MARKUP = /<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->/g;

/**
 * Why an XML document must be refused, or null: any `<!ENTITY`, or a `<!DOCTYPE` with an internal
 * subset (`[ … ]`). A plain public DOCTYPE (old RSS 0.91 feeds) passes; JSON is not XML and passes.
 */
export function entityDeclaration(text: string): string | null {
  const start = text.search(/\S/);
  if (start === -1 || text[start] === "{" || text[start] === "[") return null;
  if (!/<!(DOCTYPE|ENTITY)/i.test(text)) return null;
  const live = text.replace(QUOTED_MARKUP, "");
  const doctype = /<!DOCTYPE/gi;
  for (let m = doctype.exec(live); m; m = doctype.exec(live)) {
    if (hasInternalSubset(live, m.index + m[0].length)) return "has a DTD with an internal subset (<!DOCTYPE … [ … ]>)";
  }
  if (/<!ENTITY/i.test(live)) return "declares XML entities (<!ENTITY>)";
  return null;
}

/** Scans a DOCTYPE declaration from `at` to its `>`, skipping quoted ids: true if a `[` opens a subset. */
function hasInternalSubset(text: string, at: number): boolean {
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close === -1) return false;
      i = close;
    } else if (c === "[") return true;
    else if (c === ">") return false;
  }
  return false;
}
