import { describe, expect, test } from "bun:test";
import { buildPdf, type PdfLine } from "../../../../../test/fixtures/pages/pdf-builder.ts";
import { ExtractError, extract } from "./index.ts";
import { withTimeout } from "./pdf.ts";

const FIXTURES = new URL("../../../../../test/fixtures/pages/", import.meta.url);
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
    // Each page opens with a short line standing alone: its heading. Text stays in page order.
    expect(r.markdown).toBe(
      [
        "# Field Notes on Estuary Birds",
        "Curlews probe the soft mud for worms at low tide.",
        "Redshanks call loudly when anything approaches the flock.",
        "## Winter counts",
        "The January count found 412 dunlin on the north shore. Numbers were lower than last year because of the frost.",
        "## Methods",
        "Counts were made from the sea wall one hour before high water.",
      ].join("\n\n"),
    );
    expect(r.title).toBe("Estuary Bird Survey 2023");
    expect(r.byline).toBe("R. Okonjo");
    expect(r.publishedAt).toBe("2024-01-15T09:30:00.000Z");
    expect(r.language).toBe("en-GB");
    expect(r.siteName).toBe("reports.example.org");
    expect(r.wordCount).toBeGreaterThan(50);
  });

  test("wrapped lines become paragraphs, headings become headings, and only real lists become lists", async () => {
    const body = (text: string, gap = 14, indent = 0): PdfLine => ({ text, size: 11, gap, indent });
    const pages: PdfLine[][] = [
      [
        { text: "Tidal Energy in Small Estuaries", size: 20 },
        { text: "1. Introduction", size: 14, gap: 36 },
        body("The estuary of the river Teign has been studied for dec-", 24),
        body("ades by local naturalists, who recorded the birds, the fish and the height of every tide"),
        body("at the quay since the harbour master first kept a log in 1851."),
        body("A second paragraph begins here, and it too runs over more than a single line of the page"),
        body("before it ends with a sentence that fills most of the width of the line, nearly all of it."),
        body("An indented third paragraph starts on the next line without any extra space above it,", 14, 18),
        body("as many printed reports do."),
        { text: "2. Methods", size: 14, gap: 30 },
        body("Each count followed the same three steps, which every volunteer learnt on the first day:", 24),
        body("1. Count the birds on the mudflats one hour before high water."),
        body("2. Record the wind direction and the state of the sea."),
        body("3. Enter both in the survey book before leaving the hide."),
        body("Volunteers also noted the following about each visit, where they could:"),
        body("\x95 the number of boats moored in the channel"),
        body("\x95 any disturbance from walkers or dogs on the sea wall"),
        body("Results and Discussion", 28),
        body("The counts show that wading birds return to the same feeding grounds each winter, and that", 28),
        body("their numbers fall sharply in the weeks after a hard frost, when the mud is frozen and the"),
      ],
      [
        body("worms retreat too deep for the shorter-billed species to reach them."),
        body("1. This sentence only happens to start with a number, and the line is not a list at all"),
        body("because nothing around it is numbered."),
      ],
    ];
    const r = await extract({ body: buildPdf(pages), contentType: "application/pdf", url: URL_ });
    expect(r.markdown).toBe(
      [
        "# Tidal Energy in Small Estuaries",
        "## 1. Introduction",
        "The estuary of the river Teign has been studied for decades by local naturalists, who recorded the birds, the fish and the height of every tide at the quay since the harbour master first kept a log in 1851.",
        "A second paragraph begins here, and it too runs over more than a single line of the page before it ends with a sentence that fills most of the width of the line, nearly all of it.",
        "An indented third paragraph starts on the next line without any extra space above it, as many printed reports do.",
        "## 2. Methods",
        "Each count followed the same three steps, which every volunteer learnt on the first day:",
        "1. Count the birds on the mudflats one hour before high water.\n2. Record the wind direction and the state of the sea.\n3. Enter both in the survey book before leaving the hide.",
        "Volunteers also noted the following about each visit, where they could:",
        "- the number of boats moored in the channel\n- any disturbance from walkers or dogs on the sea wall",
        "## Results and Discussion",
        // A sentence running over the page break is one paragraph.
        "The counts show that wading birds return to the same feeding grounds each winter, and that their numbers fall sharply in the weeks after a hard frost, when the mud is frozen and the worms retreat too deep for the shorter-billed species to reach them.",
        "1\\. This sentence only happens to start with a number, and the line is not a list at all because nothing around it is numbered.",
      ].join("\n\n"),
    );
    expect(r.title).toBe("Tidal Energy in Small Estuaries");
    expect(r.excerpt).toStartWith("The estuary of the river Teign has been studied for decades");
  });

  test("page numbers and running footers go; a sentence running over the page break stays whole", async () => {
    const line = (text: string, gap = 14): PdfLine => ({ text, size: 11, gap });
    const footer = (n: number): PdfLine[] => [line("Harbour Board Annual Report 2023", 60), line(String(n))];
    const pages: PdfLine[][] = [
      [
        line("The dredging of the inner harbour was finished in March, two months later than planned, because"),
        line("the contractor's barge was needed"),
        ...footer(1),
      ],
      [
        line("elsewhere during the winter storms - the delay cost nothing, as the contract had a fixed price."),
        ...footer(2),
      ],
      [line("Moorings were let to 212 boats, the highest number since the marina opened in 1998."), ...footer(3)],
    ];
    const r = await extract({ body: buildPdf(pages), contentType: "application/pdf", url: URL_ });
    expect(r.markdown).toBe(
      "The dredging of the inner harbour was finished in March, two months later than planned, because the contractor's barge was needed elsewhere during the winter storms - the delay cost nothing, as the contract had a fixed price.\n\n" +
        "Moorings were let to 212 boats, the highest number since the marina opened in 1998.",
    );
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
