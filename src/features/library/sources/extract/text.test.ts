import { describe, expect, test } from "bun:test";
import { ExtractError, extract } from "./index.ts";

const FIXTURES = new URL("../../../../../test/fixtures/pages/", import.meta.url);

async function fixture(name: string): Promise<Uint8Array> {
  return new Uint8Array(await Bun.file(new URL(name, FIXTURES)).arrayBuffer());
}

describe("plain text and Markdown", () => {
  test("Markdown is kept as it is; the title comes from front matter, the excerpt from the first paragraph", async () => {
    const body = await fixture("reading-notes.md");
    const r = await extract({ body, contentType: "text/markdown", url: "https://notes.example/rivers.md" });
    expect(r.markdown).toBe(new TextDecoder().decode(body).trim());
    expect(r.title).toBe("Reading notes: The Shape of Rivers");
    expect(r.excerpt).toStartWith("Notes from chapters one to three. The author argues that **meanders**");
    expect(r.siteName).toBe("notes.example");
    expect(r.wordCount).toBeGreaterThan(50);
  });

  test("a setext heading is the title of text/x-markdown", async () => {
    const r = await extract({
      body: await fixture("notes-setext.markdown"),
      contentType: "text/x-markdown",
      url: "https://n.example/t",
    });
    expect(r.title).toBe("Trip Planning Checklist");
    expect(r.excerpt).toBe("Things to sort out before the ferry on Friday.");
  });

  test("the first ATX heading wins over earlier plain lines", async () => {
    const body = new TextEncoder().encode("intro line\n\n## Real heading ##\n\ntext");
    const r = await extract({ body, contentType: "text/markdown", url: "https://n.example/t" });
    expect(r.title).toBe("Real heading");
  });

  test("plain text uses its first line as title and normalises CRLF line ends", async () => {
    const r = await extract({
      body: await fixture("committee-minutes.txt"),
      contentType: "text/plain",
      url: "https://club.example/minutes.txt",
    });
    expect(r.title).toBe("Minutes of the allotment committee meeting, 4 May");
    expect(r.markdown).not.toContain("\r");
    expect(r.markdown).toContain("The water trough by plot 17 is leaking again.");
    expect(r.byline).toBeNull();
    expect(r.publishedAt).toBeNull();
  });

  test("a very long first line is trimmed to a 200-character title", async () => {
    const r = await extract({
      body: new TextEncoder().encode("word ".repeat(100)),
      contentType: "text/plain",
      url: "https://x.example/",
    });
    expect(r.title!.length).toBeLessThanOrEqual(200);
  });

  test("text in a declared legacy charset is decoded", async () => {
    const body = Uint8Array.from("Gr\xfc\xdfe aus M\xfcnchen", (c) => c.charCodeAt(0));
    const r = await extract({ body, contentType: "text/plain", charset: "iso-8859-1", url: "https://x.example/" });
    expect(r.markdown).toBe("Grüße aus München");
  });

  test("whitespace only is empty_content", async () => {
    const error = await extract({
      body: new TextEncoder().encode(" \n\n\t"),
      contentType: "text/plain",
      url: "https://x.example/",
    }).catch((e: unknown) => e);
    expect((error as ExtractError).code).toBe("empty_content");
  });
});

describe("content types", () => {
  test("binary served as text or HTML is malformed_document", async () => {
    const body = new Uint8Array(2048).map((_, i) => (i % 4 === 0 ? 0 : (i * 37) % 256));
    for (const contentType of ["text/plain", "text/html"]) {
      const error = await extract({ body, contentType, url: "https://x.example/" }).catch((e: unknown) => e);
      expect((error as ExtractError).code).toBe("malformed_document");
    }
  });

  test("an empty HTML body is empty_content", async () => {
    const error = await extract({ body: new Uint8Array(), contentType: "text/html", url: "https://x.example/" }).catch(
      (e: unknown) => e,
    );
    expect((error as ExtractError).code).toBe("empty_content");
  });

  test("anything else is unsupported_content_type", async () => {
    for (const contentType of ["image/png", "application/json", "application/octet-stream", ""]) {
      const error = await extract({ body: new Uint8Array([1, 2, 3]), contentType, url: "https://x.example/" }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ExtractError);
      expect((error as ExtractError).code).toBe("unsupported_content_type");
    }
  });
});
