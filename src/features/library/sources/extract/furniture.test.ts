import { describe, expect, test } from "bun:test";
import { bylineOf } from "./furniture.ts";
import { extract } from "./index.ts";

const STORY = [
  "The island ferry will run every forty minutes from June, the council confirmed on Tuesday after a year of complaints about cancelled crossings.",
  "By the end of the year, a second boat will join the route, and the slipway at the mainland terminal will be rebuilt so that it can be used at any state of the tide.",
  "Updated figures from the operator show that one crossing in nine was cancelled last winter, most of them because of the state of the old slipway rather than the weather.",
  "Residents said the new timetable would let children reach the secondary school on the mainland without leaving before seven in the morning.",
];

async function extracted(body: string, head = "") {
  const html = `<!DOCTYPE html><html><head><title>Ferry timetable</title>${head}</head><body><article>${body}</article></body></html>`;
  return extract({ body: new TextEncoder().encode(html), contentType: "text/html", url: "https://news.example/ferry" });
}

describe("bylines, date lines, credits and tag lines stay out of the body", () => {
  test("each kind of line goes, the story's own sentences that look alike stay, and the byline fills the field", async () => {
    const r = await extracted(`
      <h1>Ferry to run every forty minutes</h1>
      <p>By Megan Pritchard and Tom Okafor</p>
      <p>Updated Nov 19, 2019, 6:55 AM</p>
      <div><span>18 NOV 2019</span></div>
      <p>${STORY[0]}</p>
      <figure><img src="/slipway.jpg" alt="The slipway"><figcaption>The old slipway at low tide. Photograph: Ann Lee/Reuters</figcaption></figure>
      <p>${STORY[1]}</p>
      <p>Photo credit: Harbour Herald archive</p>
      <p>${STORY[2]}</p>
      <p>${STORY[3]}</p>
      <p>Filed under: Ferries, Island council, Transport</p>
      <div class="article-tags"><a href="/t/ferries">Ferries</a> <a href="/t/council">Council</a></div>`);
    for (const sentence of STORY) expect(r.markdown).toContain(sentence);
    for (const line of [
      "Megan Pritchard",
      "Nov 19, 2019",
      "18 NOV 2019",
      "Photograph: Ann Lee",
      "low tide",
      "Harbour Herald archive",
      "Filed under",
      "Island council",
      "[Ferries]",
    ]) {
      expect(r.markdown).not.toContain(line);
    }
    expect(r.markdown).toContain("![The slipway](https://news.example/slipway.jpg)");
    expect(r.byline).toBe("Megan Pritchard and Tom Okafor");
  });

  test("a byline the page's metadata already names is still removed from the body, and the metadata wins", async () => {
    const r = await extracted(
      `<h1>Ferry</h1><p class="byline">By <a href="/staff/megan">Megan Pritchard</a>, Transport correspondent</p>${STORY.map((s) => `<p>${s}</p>`).join("")}`,
      '<meta name="author" content="Megan Pritchard">',
    );
    expect(r.markdown).not.toContain("Transport correspondent");
    expect(r.markdown).toContain(STORY[3]!);
    expect(r.byline).toBe("Megan Pritchard");
  });

  test("captions ending in a credit, dates in other languages and 'Related:' pointers go; look-alike prose stays", async () => {
    const prose =
      "More than 200 islanders signed the petition, which the council's transport committee will hear in March.";
    const figures = "Updated figures for 2019 show one crossing in nine was cancelled.";
    const r = await extracted(`
      <h1>Ferry</h1>
      <div><span>segunda-feira, 22 de janeiro de 2018 às 0:13</span></div>
      <p>${STORY[0]}</p>
      <div class="img-wrap"><img src="/quay.jpg" alt=""><div>Passengers queue on the quay at Brodick before the first sailing of the new timetable. (AP Photo/Alan Diaz, File)</div></div>
      <p>${STORY[1]}</p>
      <p><strong>Related:</strong> <a href="/2023/ferry-cancellations">Ferry cancellations hit a ten-year high</a></p>
      <p>${prose} <a href="/petition">Read the petition</a>.</p>
      <p>${figures}</p>
      <p>${STORY[2]}</p>`);
    for (const sentence of [STORY[0]!, STORY[1]!, STORY[2]!, prose, figures]) expect(r.markdown).toContain(sentence);
    for (const line of ["janeiro", "Passengers queue", "AP Photo", "Related", "ten-year high"])
      expect(r.markdown).not.toContain(line);
  });

  test("a time heading an entry of a live page and a heading naming a month are kept", async () => {
    const r = await extracted(
      `<h1>The latest</h1><p>${STORY[0]}</p><h3>4:14 p.m.</h3><p>${STORY[1]}</p><h2>Clinching in November</h2><p>${STORY[2]}</p>`,
    );
    expect(r.markdown).toContain("4:14 p.m.");
    expect(r.markdown).toContain("## Clinching in November");
  });
});

describe("bylineOf", () => {
  test("names after 'By' are a byline; a sentence that starts with 'By' is not", () => {
    expect(bylineOf("By Scott Gordon")).toBe("Scott Gordon");
    expect(bylineOf("By JANE DOE, Reuters")).toBe("JANE DOE, Reuters");
    expect(bylineOf("By Ludwig van Beethoven")).toBe("Ludwig van Beethoven");
    expect(bylineOf("By the end of the year")).toBeNull();
    expect(bylineOf("By Tuesday, the council had agreed.")).toBeNull();
    expect(bylineOf("Bypass plans approved")).toBeNull();
  });
});
