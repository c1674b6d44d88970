// The library and notebook pages: tag chips link to the tag's list, ?tag= filters, and sorting by the
// original saved time (kept from imports) with paging.
import { expect, test } from "bun:test";
import { systemActor } from "../../actor.ts";
import { setup } from "./test-helpers.ts";
import { sqlRows } from "../../db/inspect.ts";

test("tag chips link to ?tag=, which lists only sources with that tag; sort=saved_at orders and pages by saved time", async () => {
  const { ctx, me, b } = await setup();
  const actor = systemActor(me.userId, "test");
  const nb = await ctx.services.notebooks.create(actor, { name: "Old links" });
  const ids: string[] = [];
  for (let i = 0; i < 23; i++)
    ids.push(
      (
        await ctx.services.sources.create(actor, {
          url: `https://example.com/p${i}`,
          title: `Page ${i}`,
          notebook_ids: [nb.id],
        })
      ).source.id,
    );
  // Saved long ago, in the reverse order of adding; two of them tagged.
  for (const [i, id] of ids.entries())
    await sqlRows(
      ctx.db,
      "UPDATE sources SET saved_at = ? WHERE id = ?",
      new Date(Date.UTC(2015, 0, 30 - i)).toISOString(),
      id,
    );
  await ctx.services.sources.update(actor, ids[3]!, { tags: ["slow reading"] });
  await ctx.services.sources.update(actor, ids[7]!, { tags: ["slow reading", "x"] });

  const all = await b.get("/library");
  expect(all.text).toContain('<a class="tag" href="/library?tag=slow%20reading">#slow reading</a>');
  expect(all.text).toContain('<time datetime="2015-01-27T00:00:00.000Z">');
  const tagged = await b.get("/library?tag=slow%20reading");
  expect(tagged.status).toBe(200);
  const titles = (text: string) =>
    [...text.matchAll(/class="title" href="\/library\/sources\/[^"]+">(Page \d+)</g)].map((m) => m[1]);
  expect(titles(tagged.text)).toEqual(["Page 7", "Page 3"]);

  // Newest saved first is the order of adding here; 20 a page, the rest behind "More".
  const bySaved = await b.get("/library?sort=saved_at");
  expect(titles(bySaved.text)).toEqual(Array.from({ length: 20 }, (_, i) => `Page ${i}`));
  const more = /href="(\/library\?[^"]*sort=saved_at[^"]*)" rel="next"/
    .exec(bySaved.text)![1]!
    .replaceAll("&amp;", "&");
  expect(titles((await b.get(more)).text)).toEqual(["Page 20", "Page 21", "Page 22"]);
  expect(titles((await b.get("/library")).text)[0]).toBe("Page 22");

  const notebook = await b.get(`/notebooks/${nb.id}?sort=saved_at`);
  expect(titles(notebook.text)[0]).toBe("Page 0");
  expect(titles((await b.get(`/notebooks/${nb.id}`)).text)[0]).toBe("Page 22");
}, 30_000);
