// Notebooks over HTTP: CRUD, counts, membership, isolation, and their events.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../../test/helpers.ts";

async function setup() {
  const ctx = createTestContext();
  const a = await userWithKey(ctx);
  const b = await userWithKey(ctx);
  return { ctx, a, b };
}

describe("notebooks", () => {
  test("create, read, update, list, delete", async () => {
    const { ctx, a } = await setup();
    const c = await call(ctx, "POST", "/api/v1/notebooks", {
      key: a.key,
      body: { name: "  Reading  ", description: "Things to read" },
    });
    expect(c.status).toBe(201);
    expect(c.headers.get("location")).toBe(`/api/v1/notebooks/${c.body.id}`);
    expect(c.body).toMatchObject({ name: "Reading", description: "Things to read", source_count: 0, note_count: 0 });
    expect(c.body.id).toMatch(/^nb_[0-9A-Z]{26}$/);
    const u = await call(ctx, "PATCH", `/api/v1/notebooks/${c.body.id}`, { key: a.key, body: { name: "Later" } });
    expect(u.body).toMatchObject({ name: "Later", description: "Things to read" });
    await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Second" } });
    const list = await call(ctx, "GET", "/api/v1/notebooks", { key: a.key });
    expect(list.body.data.map((n: any) => n.name)).toEqual(["Second", "Later"]);
    const d = await call(ctx, "DELETE", `/api/v1/notebooks/${c.body.id}`, { key: a.key });
    expect(d.status).toBe(200);
    expect((await call(ctx, "GET", `/api/v1/notebooks/${c.body.id}`, { key: a.key })).status).toBe(404);
  });

  test("validation names the field", async () => {
    const { ctx, a } = await setup();
    const r = await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "" } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].path).toBe("name");
    const r2 = await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: {} });
    expect(r2.status).toBe(422);
    expect(r2.body.errors[0].path).toBe("name");
  });

  test("sources join and leave; counts follow; deleting the notebook keeps its sources and notes", async () => {
    const { ctx, a } = await setup();
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "NB" } })).body;
    const src = (await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: "https://example.com/a" } }))
      .body;
    const put = await call(ctx, "PUT", `/api/v1/notebooks/${nb.id}/sources/${src.id}`, { key: a.key });
    expect(put.status).toBe(200);
    expect(put.body.notebook_ids).toEqual([nb.id]);
    expect((await call(ctx, "PUT", `/api/v1/notebooks/${nb.id}/sources/${src.id}`, { key: a.key })).status).toBe(200);
    await call(ctx, "POST", "/api/v1/notes", { key: a.key, body: { content: "hello", notebook_id: nb.id } });
    expect((await call(ctx, "GET", `/api/v1/notebooks/${nb.id}`, { key: a.key })).body).toMatchObject({
      source_count: 1,
      note_count: 1,
    });
    const listed = await call(ctx, "GET", `/api/v1/sources?notebook_id=${nb.id}`, { key: a.key });
    expect(listed.body.data.map((s: any) => s.id)).toEqual([src.id]);
    const del = await call(ctx, "DELETE", `/api/v1/notebooks/${nb.id}/sources/${src.id}`, { key: a.key });
    expect(del.body.notebook_ids).toEqual([]);
    expect((await call(ctx, "DELETE", `/api/v1/notebooks/${nb.id}/sources/${src.id}`, { key: a.key })).status).toBe(
      404,
    );
    await call(ctx, "PUT", `/api/v1/notebooks/${nb.id}/sources/${src.id}`, { key: a.key });
    await call(ctx, "DELETE", `/api/v1/notebooks/${nb.id}`, { key: a.key });
    expect((await call(ctx, "GET", `/api/v1/sources/${src.id}`, { key: a.key })).body.notebook_ids).toEqual([]);
    const notes = await call(ctx, "GET", "/api/v1/notes", { key: a.key });
    expect(notes.body.data).toHaveLength(1);
    expect(notes.body.data[0].notebook_id).toBeNull();
  });

  test("another user's notebook is 404 on every verb", async () => {
    const { ctx, a, b } = await setup();
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "Private" } })).body;
    const bsrc = (await call(ctx, "POST", "/api/v1/sources", { key: b.key, body: { url: "https://example.com/b" } }))
      .body;
    const asrc = (await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: "https://example.com/a" } }))
      .body;
    for (const [method, path, body] of [
      ["GET", `/api/v1/notebooks/${nb.id}`],
      ["PATCH", `/api/v1/notebooks/${nb.id}`, { name: "x" }],
      ["DELETE", `/api/v1/notebooks/${nb.id}`],
      ["PUT", `/api/v1/notebooks/${nb.id}/sources/${bsrc.id}`],
      ["DELETE", `/api/v1/notebooks/${nb.id}/sources/${bsrc.id}`],
      ["GET", `/api/v1/notebooks/${nb.id}/export/markdown`],
    ] as const) {
      const r = await call(ctx, method, path, { key: b.key, body });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("not_found");
    }
    // Nor can a user put someone else's source into their own notebook.
    const bnb = (await call(ctx, "POST", "/api/v1/notebooks", { key: b.key, body: { name: "B" } })).body;
    expect((await call(ctx, "PUT", `/api/v1/notebooks/${bnb.id}/sources/${asrc.id}`, { key: b.key })).status).toBe(404);
    expect((await call(ctx, "GET", `/api/v1/sources?notebook_id=${nb.id}`, { key: b.key })).body.data).toEqual([]);
  });

  test("each change writes one event in the same transaction", async () => {
    const { ctx, a } = await setup();
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "E" } })).body;
    await call(ctx, "PATCH", `/api/v1/notebooks/${nb.id}`, { key: a.key, body: { description: "d" } });
    await call(ctx, "DELETE", `/api/v1/notebooks/${nb.id}`, { key: a.key });
    const evs = (await ctx.services.events.forUser(a.userId, { limit: 10 })).reverse();
    expect(evs.map((e) => e.type)).toEqual(["notebook.created", "notebook.updated", "notebook.deleted"]);
    expect(evs[1]!.previous).toMatchObject({ description: null });
    expect(evs[1]!.data).toMatchObject({ description: "d" });
  });
});
