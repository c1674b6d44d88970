// Notes over HTTP: CRUD, references, download, isolation.
import { describe, expect, test } from "bun:test";
import { call, createTestContext, userWithKey } from "../../../../test/helpers.ts";

describe("notes", () => {
  test("create with references, update, download, delete", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const src = (await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: "https://example.com/x" } }))
      .body;
    const nb = (await call(ctx, "POST", "/api/v1/notebooks", { key: a.key, body: { name: "N" } })).body;
    const c = await call(ctx, "POST", "/api/v1/notes", {
      key: a.key,
      body: { content: "# Thoughts\n\nÜber *notes*.", title: "Café notes", notebook_id: nb.id, source_ids: [src.id] },
    });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ title: "Café notes", notebook_id: nb.id, source_ids: [src.id] });
    const u = await call(ctx, "PATCH", `/api/v1/notes/${c.body.id}`, {
      key: a.key,
      body: { content: "changed", source_ids: [] },
    });
    expect(u.body).toMatchObject({ content: "changed", source_ids: [], title: "Café notes" });
    const dl = await ctx.app.handle(
      new Request(`http://localhost/api/v1/notes/${c.body.id}/download`, {
        headers: { authorization: `Bearer ${a.key}` },
      }),
    );
    expect(dl.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(dl.headers.get("content-disposition")).toBe(
      `attachment; filename="cafe-notes.md"; filename*=UTF-8''cafe-notes.md`,
    );
    expect(await dl.text()).toBe("changed");
    expect((await call(ctx, "DELETE", `/api/v1/notes/${c.body.id}`, { key: a.key })).status).toBe(200);
    expect((await call(ctx, "GET", `/api/v1/notes/${c.body.id}`, { key: a.key })).status).toBe(404);
  });

  test("invalid fields are 422 naming the field", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    const bsrc = (await call(ctx, "POST", "/api/v1/sources", { key: b.key, body: { url: "https://example.com/b" } }))
      .body;
    const cases: [unknown, string][] = [
      [{}, "content"],
      [{ content: "" }, "content"],
      [{ content: "x", notebook_id: "nb_01J0000000000000000000000A" }, "notebook_id"],
      [{ content: "x", source_ids: [bsrc.id] }, "source_ids[0]"],
      [{ content: "x", source_ids: ["nope"] }, "source_ids[0]"],
    ];
    for (const [body, path] of cases) {
      const r = await call(ctx, "POST", "/api/v1/notes", { key: a.key, body });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].path).toBe(path);
    }
  });

  test("content over 1 MB is refused", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const r = await call(ctx, "POST", "/api/v1/notes", { key: a.key, body: { content: "x".repeat(1_000_001) } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].path).toBe("content");
  });

  test("another user's note is 404 on every verb", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    const n = (await call(ctx, "POST", "/api/v1/notes", { key: a.key, body: { content: "secret" } })).body;
    for (const [method, path, body] of [
      ["GET", `/api/v1/notes/${n.id}`],
      ["PATCH", `/api/v1/notes/${n.id}`, { content: "x" }],
      ["DELETE", `/api/v1/notes/${n.id}`],
      ["GET", `/api/v1/notes/${n.id}/download`],
    ] as const) {
      expect((await call(ctx, method, path, { key: b.key, body })).status).toBe(404);
    }
    expect((await call(ctx, "GET", "/api/v1/notes", { key: b.key })).body.data).toEqual([]);
  });

  test("?source_id= lists only the notes about that source, and only the caller's", async () => {
    const ctx = createTestContext();
    const a = await userWithKey(ctx);
    const b = await userWithKey(ctx);
    const [s1, s2] = await Promise.all(
      ["x1", "x2"].map(
        async (p) =>
          (await call(ctx, "POST", "/api/v1/sources", { key: a.key, body: { url: `https://example.com/${p}` } })).body
            .id,
      ),
    );
    const both = (
      await call(ctx, "POST", "/api/v1/notes", { key: a.key, body: { content: "both", source_ids: [s1, s2] } })
    ).body.id;
    const only2 = (await call(ctx, "POST", "/api/v1/notes", { key: a.key, body: { content: "two", source_ids: [s2] } }))
      .body.id;
    await call(ctx, "POST", "/api/v1/notes", { key: a.key, body: { content: "none" } });
    const ids = async (key: string, q: string) =>
      (await call(ctx, "GET", `/api/v1/notes?${q}`, { key })).body.data.map((n: { id: string }) => n.id);
    expect(await ids(a.key, `source_id=${s1}`)).toEqual([both]);
    expect(await ids(a.key, `source_id=${s2}`)).toEqual([only2, both]);
    expect(await ids(b.key, `source_id=${s2}`)).toEqual([]);
    expect((await call(ctx, "GET", "/api/v1/notes?source_id=nope", { key: a.key })).status).toBe(422);
  });
});
