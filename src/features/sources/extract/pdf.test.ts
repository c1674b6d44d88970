import { describe, expect, test } from "bun:test";
import { buildPdf } from "../../../../test/fixtures/pages/pdf-builder.ts";
import { ExtractError, extract } from "./index.ts";
import { withTimeout } from "./pdf.ts";

const FIXTURES = new URL("../../../../test/fixtures/pages/", import.meta.url);
const URL_ = "https://reports.example.org/files/survey.pdf";

async function fixture(name: string): Promise<Uint8Array> {
  return new Uint8Array(await Bun.file(new URL(name, FIXTURES)).arrayBuffer());
}

async function extractionError(body: Uint8Array): Promise<ExtractError> {
  const error = await extract({ body, contentType: "application/pdf", url: URL_ }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ExtractError);
  return error as ExtractError;
}

describe("PDF extraction", () => {
  test("a three-page PDF gives its text page by page and its Info metadata", async () => {
    const r = await extract({ body: await fixture("survey-3-pages.pdf"), contentType: "application/pdf", url: URL_ });
    const pages = r.markdown.split("\n\n");
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain("Curlews probe the soft mud for worms at low tide.");
    expect(pages[1]).toContain("The January count found 412 dunlin on the north shore.");
    expect(pages[2]).toContain("Counts were made from the sea wall one hour before high water.");
    expect(r.title).toBe("Estuary Bird Survey 2023");
    expect(r.byline).toBe("R. Okonjo");
    expect(r.publishedAt).toBe("2024-01-15T09:30:00.000Z");
    expect(r.language).toBe("en-GB");
    expect(r.siteName).toBe("reports.example.org");
    expect(r.wordCount).toBeGreaterThan(50);
  });

  test("without a usable Title the first non-empty line is the title", async () => {
    const body = buildPdf([["", "Minutes of the harbour board", "Item one: dredging."]], { title: "Untitled" });
    const r = await extract({ body, contentType: "application/pdf", url: URL_ });
    expect(r.title).toBe("Minutes of the harbour board");
    expect(r.byline).toBeNull();
    expect(r.publishedAt).toBeNull();
  });

  test("the caller's buffer is left intact (pdf.js gets a copy)", async () => {
    const body = buildPdf([["Copy me."]]);
    const before = body.slice();
    await extract({ body, contentType: "application/pdf", url: URL_ });
    expect(body.byteLength).toBe(before.byteLength);
    expect(body).toEqual(before);
  });

  test("a truncated PDF is malformed_pdf", async () => {
    expect((await extractionError(await fixture("truncated.pdf"))).code).toBe("malformed_pdf");
  });

  test("garbage after a PDF header is malformed_pdf", async () => {
    const body = new Uint8Array(4000).map((_, i) => (i * 7919 + 13) % 256);
    body.set(new TextEncoder().encode("%PDF-1.7\n"), 0);
    expect((await extractionError(body)).code).toBe("malformed_pdf");
  });

  test("bytes that are not a PDF at all are malformed_pdf", async () => {
    const error = await extractionError(new TextEncoder().encode("<html>not a pdf</html>"));
    expect(error.code).toBe("malformed_pdf");
    expect((await extractionError(new Uint8Array())).code).toBe("malformed_pdf");
  });

  test("a PDF whose pages carry no text is empty_content", async () => {
    expect((await extractionError(buildPdf([[], []]))).code).toBe("empty_content");
  });

  test("work on a PDF that never finishes is abandoned as malformed_pdf", async () => {
    const error = await withTimeout(new Promise(() => {}), 5).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExtractError);
    expect((error as ExtractError).code).toBe("malformed_pdf");
  });
});
