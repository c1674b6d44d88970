import { describe, expect, test } from "bun:test";
import { decodeMarkup, decodeText, looksBinary, normalizeCharset, sniffDeclaredCharset } from "./decode.ts";

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const utf8 = (s: string) => new TextEncoder().encode(s);

describe("charset handling", () => {
  test("normalizes labels and rejects unknown ones", () => {
    expect(normalizeCharset("ISO-8859-1")).toBe("windows-1252");
    expect(normalizeCharset(" Shift_JIS ")).toBe("shift_jis");
    expect(normalizeCharset("no-such-charset")).toBeNull();
    expect(normalizeCharset(undefined)).toBeNull();
  });

  test("reads <meta charset>, <meta http-equiv> and the XML prolog", () => {
    expect(sniffDeclaredCharset(utf8('<meta charset="koi8-r">'))).toBe("koi8-r");
    expect(sniffDeclaredCharset(utf8('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2">'))).toBe(
      "iso-8859-2",
    );
    expect(sniffDeclaredCharset(utf8('<?xml version="1.0" encoding="windows-1251"?><html>'))).toBe("windows-1251");
    // A declaration readable as ASCII cannot be UTF-16, so it means UTF-8.
    expect(sniffDeclaredCharset(utf8('<meta charset="utf-16">'))).toBe("utf-8");
    expect(sniffDeclaredCharset(utf8("<p>nothing declared</p>"))).toBeNull();
  });

  test("BOM beats the HTTP charset, which beats the document's declaration", () => {
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8("<p>café</p>")]);
    expect(decodeMarkup(withBom, "windows-1252")).toBe("<p>café</p>");
    const declared = latin1('<meta charset="utf-8"><p>caf\xe9</p>');
    expect(decodeMarkup(declared, "iso-8859-1")).toContain("café");
    expect(decodeMarkup(latin1('<meta charset="windows-1252"><p>caf\xe9 \x80</p>'))).toContain("café €");
  });

  test("an unknown HTTP charset falls through to the document's declaration", () => {
    expect(decodeMarkup(latin1('<meta charset="iso-8859-15"><p>\xa4</p>'), "x-bogus")).toContain("€");
  });

  test("undeclared bytes are UTF-8 when valid, else windows-1252", () => {
    expect(decodeMarkup(utf8("<p>naïve</p>"))).toBe("<p>naïve</p>");
    expect(decodeMarkup(latin1("<p>na\xefve</p>"))).toBe("<p>naïve</p>");
    expect(decodeText(latin1("na\xefve"))).toBe("naïve");
    expect(decodeText(latin1("na\xefve"), "utf-8")).toBe("na\uFFFDve");
  });
});

describe("binary detection", () => {
  test("text, even with the odd stray control character, is not binary", () => {
    expect(looksBinary("plain words\tand tabs\r\n".repeat(50))).toBe(false);
    expect(looksBinary(`${"a".repeat(500)}\u0007${"b".repeat(500)}`)).toBe(false);
  });

  test("bytes full of NULs and controls are binary", () => {
    const png = new Uint8Array(600).map((_, i) => (i % 3 === 0 ? 0 : (i * 31) % 256));
    expect(looksBinary(decodeText(png))).toBe(true);
  });
});
