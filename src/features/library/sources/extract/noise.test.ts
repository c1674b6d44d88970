import { describe, expect, test } from "bun:test";
import { parseDocument } from "./dom.ts";
import { type Extracted, extract } from "./index.ts";
import { looksLikeNoise } from "./noise.ts";

const URL_ = "https://news.example/2024/05/ferry";

function paragraphs(topic: string, n: number): string {
  return Array.from(
    { length: n },
    (_, i) =>
      `<p>${topic} paragraph ${i + 1}: the council met on Tuesday evening and heard from residents, engineers and the ferry company about the timetable, the fares and the state of the slipway.</p>`,
  ).join("\n");
}

async function page(body: string): Promise<Extracted> {
  const html = `<!DOCTYPE html><html lang="en"><head><title>Ferry timetable</title></head><body>${body}</body></html>`;
  return extract({ body: new TextEncoder().encode(html), contentType: "text/html", url: URL_ });
}

function element(html: string): Element {
  return parseDocument(html).body.firstElementChild!;
}

describe("noise names are read word by word", () => {
  test("a class naming an ad, a promo or a share bar is noise; one that merely contains the letters is not", () => {
    for (const html of [
      '<div class="ad-column-l">',
      '<div class="adSlot">',
      '<div id="top-banner-ad">',
      '<div class="promo-box">',
      '<div class="share_tools">',
      '<div class="x related-posts">',
    ]) {
      expect(looksLikeNoise(element(html))).toBe(true);
    }
    for (const html of [
      '<section class="non-ad-column-l pr5-l">',
      '<div class="no-ads">',
      '<div class="ad-free story">',
      '<div class="m-advertisement-off-canvas--pusher">',
      '<div class="shadow">',
      '<div class="social-media-embed">',
      '<div class="header">',
    ]) {
      expect(looksLikeNoise(element(html))).toBe(false);
    }
  });
});

describe("noise is marked, Readability chooses on the intact page, then noise goes from its choice", () => {
  test('a story inside class="non-ad-column-l" is kept, the ad column beside it is not', async () => {
    const r = await page(`
      <header><h1 class="logo"><a href="/">Spokane Daily</a></h1> <span>Wednesday, November 20</span></header>
      <section class="non-ad-column-l pr5-l mb5">
        <h2>Ferry timetable changes approved</h2>
        ${paragraphs("Story", 6)}
      </section>
      <section class="ad-column-l pt4-l"><div class="ad-unit"><p>Advertisement: refinance your home today with our partners.</p></div></section>`);
    expect(r.markdown).toContain("Story paragraph 1: the council met");
    expect(r.markdown).toContain("Story paragraph 6:");
    expect(r.markdown).not.toContain("refinance your home");
  });

  test("a list inside the story under a promo class is kept; a real promo box in the story is removed", async () => {
    const r = await page(`
      <div id="story">
        <h1>The five fares that change</h1>
        ${paragraphs("Opening", 3)}
        <ul class="promo-list">
          <li>Day returns rise from £4.20 to £4.80, the first rise since the new boat entered service in 2019.</li>
          <li>Season tickets for islanders stay at £310 a year after the council agreed to cover the difference.</li>
          <li>Cars under five metres pay £18, while vans and trailers move to a new band priced by length.</li>
        </ul>
        <div class="promo-box"><a href="/subscribe">Subscribe for £1 a week</a> <a href="/offer">See the offer</a></div>
        ${paragraphs("Closing", 3)}
      </div>
      <footer><p>© Island Press</p></footer>`);
    expect(r.markdown).toContain("- Day returns rise from £4.20 to £4.80");
    expect(r.markdown).toContain("- Season tickets for islanders stay at £310");
    expect(r.markdown).toContain("Closing paragraph 3:");
    expect(r.markdown).not.toContain("Subscribe for £1");
    expect(r.markdown).not.toContain("Island Press");
  });

  test("a marked wrapper holding most of the story keeps it, while the share bar inside it goes", async () => {
    const r = await page(`
      <div class="share-enabled story-wrap">
        <h1>Slipway repairs start in June</h1>
        <div class="share-bar"><a href="https://facebook.example/share">Share on Facebook</a> <a href="mailto:?">Email</a></div>
        ${paragraphs("Repairs", 6)}
      </div>`);
    expect(r.markdown).toContain("Repairs paragraph 1:");
    expect(r.markdown).toContain("Repairs paragraph 6:");
    expect(r.markdown).not.toContain("Share on Facebook");
  });

  test("a one-paragraph ad box loses nothing of its mark when Readability swaps the box for its paragraph", async () => {
    const r = await page(
      `<article><h1>Fares</h1>${paragraphs("Fares", 3)}<div class="ad-slot ad-inline"><p>Sponsored: Discover luxury cruises along the fjords this summer.</p></div>${paragraphs("More", 2)}</article>`,
    );
    expect(r.markdown).toContain("More paragraph 2:");
    expect(r.markdown).not.toContain("luxury cruises");
  });
});
