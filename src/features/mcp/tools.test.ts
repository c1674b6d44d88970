// The MCP tools through the SDK's own client: same services and schemas as the HTTP API, text plus
// structuredContent, validation as tool errors, and another user's data never returned.
import { sqlRows } from "../../db/inspect.ts";
import { describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { call, createTestContext, userWithKey, type TestContext } from "../../../test/helpers.ts";
import { systemActor } from "../../actor.ts";
import { connectedUser } from "../oauth/test-flow.ts";
import { mcpClient, rpc } from "./test-client.ts";

type Result = {
  structuredContent?: Record<string, any>;
  content: { type: string; text?: string }[];
  isError?: boolean;
};

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result;
}

/** A ready, indexed source, as ingestion would leave it. */
async function readySource(
  ctx: TestContext,
  userId: string,
  url: string,
  title: string,
  markdown: string,
): Promise<string> {
  const { source } = await ctx.services.sources.create(systemActor(userId, "test"), { url, title });
  await sqlRows(ctx.db, "UPDATE sources SET status = 'ready', content = ? WHERE id = ?", markdown, source.id);
  await ctx.services.indexer.index({ type: "source", id: source.id, userId, title, markdown });
  return source.id;
}

describe("MCP tools", () => {
  test("every tool's input schema is the HTTP API's TypeBox schema as plain JSON Schema", async () => {
    const ctx = createTestContext();
    const { key } = await userWithKey(ctx);
    const client = await mcpClient(ctx, key);
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === "search")!;
    expect(search.inputSchema).toMatchObject({ type: "object", required: ["query"] });
    expect(Object.keys(search.inputSchema.properties!)).toEqual(["query", "mode", "notebook_id", "limit"]);
    expect(search.inputSchema.properties!.limit).toEqual({ minimum: 1, maximum: 50, default: 10, type: "integer" });
    expect(tools.find((t) => t.name === "create_note")!.inputSchema.required).toEqual(["content"]);
    for (const t of tools) expect(t.outputSchema?.type).toBe("object");
    await client.close();
  });

  test("search with an API key returns the same hits as POST /api/v1/search, as text and structuredContent", async () => {
    const ctx = createTestContext();
    const { key, userId } = await userWithKey(ctx);
    await readySource(
      ctx,
      userId,
      "https://bread.example/sourdough",
      "Sourdough basics",
      "# Starter\n\nFeed the sourdough starter with rye flour every morning.",
    );
    const client = await mcpClient(ctx, key);
    const res = await callTool(client, "search", { query: "sourdough starter" });
    expect(res.isError).toBeUndefined();
    expect(res.structuredContent!.mode).toBe("text");
    expect(res.structuredContent!.data[0]).toMatchObject({
      type: "source",
      title: "Sourdough basics",
      url: "https://bread.example/sourdough",
    });
    expect(JSON.parse(res.content[0]!.text!)).toEqual(res.structuredContent!);
    const http = await call(ctx, "POST", "/api/v1/search", { key, body: { query: "sourdough starter" } });
    expect(res.structuredContent).toEqual(http.body);
    await client.close();
  });

  test("save_source, get_source with content, list_sources, list_notebooks, create_note, ask", async () => {
    const ctx = createTestContext();
    const u = await connectedUser(ctx);
    const client = await mcpClient(ctx, u.access);
    const nb = await ctx.services.notebooks.create(systemActor(u.userId, "test"), { name: "Baking" });

    const saved = await callTool(client, "save_source", {
      url: "https://example.com/a?utm_source=x",
      title: "A page",
      notebook_ids: [nb.id],
    });
    expect(saved.structuredContent).toMatchObject({
      created: true,
      source: { status: "pending", title: "A page", notebook_ids: [nb.id] },
    });
    const again = await callTool(client, "save_source", { url: "https://example.com/a" });
    expect(again.structuredContent).toMatchObject({
      created: false,
      source: { id: saved.structuredContent!.source.id },
    });

    const id = await readySource(
      ctx,
      u.userId,
      "https://bread.example/rye",
      "Rye bread",
      "Rye bread needs a long, slow proof in a cool kitchen.",
    );
    const got = await callTool(client, "get_source", { id });
    expect(got.structuredContent).toMatchObject({
      id,
      status: "ready",
      content: "Rye bread needs a long, slow proof in a cool kitchen.",
    });

    const page1 = await callTool(client, "list_sources", { limit: 1 });
    expect(page1.structuredContent!.data).toHaveLength(1);
    expect(page1.structuredContent!.data[0].id).toBe(id);
    const page2 = await callTool(client, "list_sources", { limit: 1, cursor: page1.structuredContent!.next_cursor });
    expect(page2.structuredContent).toMatchObject({
      data: [{ id: saved.structuredContent!.source.id }],
      next_cursor: null,
    });

    const notebooks = await callTool(client, "list_notebooks", {});
    expect(notebooks.structuredContent).toMatchObject({
      data: [{ id: nb.id, name: "Baking", source_count: 1 }],
      next_cursor: null,
    });

    const note = await callTool(client, "create_note", {
      content: "Proof rye overnight.",
      title: "Rye tip",
      notebook_id: nb.id,
      source_ids: [id],
    });
    expect(note.structuredContent).toMatchObject({ title: "Rye tip", notebook_id: nb.id, source_ids: [id] });
    const found = await callTool(client, "search", { query: "overnight", mode: "text" });
    expect(found.structuredContent!.data.map((h: { id: string }) => h.id)).toEqual([note.structuredContent!.id]);

    const answer = await callTool(client, "ask", { question: "How long should rye bread proof?" });
    expect(answer.structuredContent!.citations.length).toBeGreaterThan(0);
    expect(answer.structuredContent!.credits_used).toBe(1);
    await client.close();
  });

  test("list_sources filters by tag and pages by the original saved time with sort=saved_at", async () => {
    const ctx = createTestContext();
    const { key, userId } = await userWithKey(ctx);
    const client = await mcpClient(ctx, key);
    const actor = systemActor(userId, "test");
    const ids: string[] = [];
    for (const p of ["old", "older", "oldest"])
      ids.push((await ctx.services.sources.create(actor, { url: `https://example.com/${p}` })).source.id);
    const times = ["2018-03-01T00:00:00.000Z", "2017-03-01T00:00:00.000Z", "2016-03-01T00:00:00.000Z"];
    // Created in the order old, older, oldest; saved the other way round, so the two orders differ.
    for (const [i, t] of times.entries()) {
      await sqlRows(
        ctx.db,
        "UPDATE sources SET saved_at = ?, tags = ? WHERE id = ?",
        t,
        i === 1 ? '["keep"]' : '["keep","x"]',
        ids[i]!,
      );
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await callTool(client, "list_sources", { limit: 1, sort: "saved_at", ...(cursor ? { cursor } : {}) });
      seen.push(...r.structuredContent!.data.map((s: { id: string }) => s.id));
      cursor = r.structuredContent!.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(ids);
    const tagged = await callTool(client, "list_sources", { tag: "x" });
    expect(tagged.structuredContent!.data.map((s: { id: string }) => s.id)).toEqual([ids[2]!, ids[0]!]);
    await client.close();
  });

  test("invalid arguments are a tool error naming the field; an unknown tool is a protocol error", async () => {
    const ctx = createTestContext();
    const { key } = await userWithKey(ctx);
    const client = await mcpClient(ctx, key);
    const res = await callTool(client, "search", { query: "x", limit: 500 });
    expect(res.isError).toBe(true);
    const body = JSON.parse(res.content[0]!.text!);
    expect(body.code).toBe("validation_failed");
    expect(body.errors[0].path).toBe("limit");
    const missing = await callTool(client, "create_note", {});
    expect(JSON.parse(missing.content[0]!.text!).errors[0].path).toBe("content");
    const badUrl = await callTool(client, "save_source", { url: "ftp://example.com/x" });
    expect(badUrl.isError).toBe(true);
    expect(JSON.parse(badUrl.content[0]!.text!)).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "url" }],
    });
    await expect(client.callTool({ name: "delete_everything", arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });

  test("tools share the API's strictness: unknown arguments, enums and integers say what is allowed", async () => {
    const ctx = createTestContext();
    const { key } = await userWithKey(ctx);
    const client = await mcpClient(ctx, key);
    const errorOf = async (name: string, args: Record<string, unknown>) =>
      JSON.parse((await callTool(client, name, args)).content[0]!.text!);
    expect((await errorOf("create_note", { content: "x", notebook_ids: [] })).errors[0]).toEqual({
      path: "notebook_ids",
      message: 'unknown field "notebook_ids"; allowed: content, title, notebook_id, source_ids',
    });
    expect((await errorOf("list_sources", { status: "READY" })).errors[0]).toEqual({
      path: "status",
      message: "must be one of: pending, ready, failed",
    });
    expect((await errorOf("list_sources", { limit: 0 })).errors[0]).toEqual({
      path: "limit",
      message: "must be an integer from 1 to 100",
    });
    expect((await errorOf("list_sources", { created_after: "2020-02-30T00:00:00Z" })).errors[0].path).toBe(
      "created_after",
    );
    const { tools } = await client.listTools();
    const list = tools.find((t) => t.name === "list_sources")!;
    expect(list.inputSchema.properties!.limit).toEqual({
      type: "integer",
      minimum: 1,
      maximum: 100,
      default: 20,
      description: "Page size, 1–100 (default 20)",
    });
    expect(list.inputSchema.additionalProperties).toBe(false);
    expect((await callTool(client, "list_sources", { limit: 5 })).structuredContent).toEqual({
      data: [],
      next_cursor: null,
    });
    await client.close();
  });

  test("another user's sources, notes and notebooks are never returned", async () => {
    const ctx = createTestContext();
    const owner = await userWithKey(ctx);
    const secret = await readySource(
      ctx,
      owner.userId,
      "https://private.example/diary",
      "Diary",
      "The secret recipe uses cardamom and saffron.",
    );
    const nb = await ctx.services.notebooks.create(systemActor(owner.userId, "test"), { name: "Private" });
    await ctx.services.notes.create(systemActor(owner.userId, "test"), {
      content: "Cardamom note",
      notebook_id: nb.id,
    });

    const intruder = await connectedUser(ctx);
    const client = await mcpClient(ctx, intruder.access);
    for (const mode of ["text", "vector", "hybrid"]) {
      const hits = await callTool(client, "search", { query: "cardamom saffron", mode });
      expect(hits.structuredContent!.data).toEqual([]);
    }
    expect(
      (await callTool(client, "search", { query: "cardamom", notebook_id: nb.id })).structuredContent!.data,
    ).toEqual([]);
    expect((await callTool(client, "list_sources", {})).structuredContent!.data).toEqual([]);
    expect((await callTool(client, "list_notebooks", {})).structuredContent!.data).toEqual([]);
    const get = await callTool(client, "get_source", { id: secret });
    expect(get.isError).toBe(true);
    expect(JSON.parse(get.content[0]!.text!).code).toBe("not_found");
    expect(JSON.stringify(get)).not.toContain("cardamom");
    const ask = await callTool(client, "ask", { question: "What does the secret recipe use?" });
    expect(JSON.stringify(ask)).not.toContain("saffron");
    const note = await callTool(client, "create_note", { content: "x", notebook_id: nb.id, source_ids: [secret] });
    expect(note.isError).toBe(true);
    expect(
      (
        await rpc(
          ctx,
          intruder.access,
          { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "get_source", arguments: { id: secret } } },
          { "mcp-protocol-version": "2025-06-18" },
        )
      ).text,
    ).not.toContain("Diary");
    await client.close();
  });

  test("create_highlight and list_highlights: anchored like the API, filtered, errors as tool results, owner only", async () => {
    const ctx = createTestContext();
    const u = await userWithKey(ctx);
    const other = await userWithKey(ctx);
    const id = await readySource(
      ctx,
      u.userId,
      "https://bread.example/rye",
      "Rye bread",
      "Rye bread needs a long, slow proof in a cool kitchen. A long proof builds flavour.",
    );
    const second = await readySource(ctx, u.userId, "https://bread.example/wheat", "Wheat", "Wheat rises fast.");
    const client = await mcpClient(ctx, u.key);
    const made = await callTool(client, "create_highlight", {
      source_id: id,
      exact: "A long proof",
      note: "Try overnight",
      color: "green",
    });
    expect(made.isError).toBeUndefined();
    expect(made.structuredContent).toMatchObject({
      source_id: id,
      exact: "A long proof",
      position: { start: 54, end: 66 },
      prefix: ", slow proof in a cool kitchen. ",
      suffix: " builds flavour.",
      color: "green",
      note: "Try overnight",
      source: { title: "Rye bread", url: "https://bread.example/rye" },
    });
    await callTool(client, "create_highlight", { source_id: second, exact: "rises fast" });
    const listed = await callTool(client, "list_highlights", { source_id: id });
    expect(listed.structuredContent).toEqual({ data: [made.structuredContent], next_cursor: null });
    const http = await call(ctx, "GET", `/api/v1/highlights?source_id=${id}`, { key: u.key });
    expect(listed.structuredContent).toEqual(http.body);
    expect((await callTool(client, "list_highlights", { limit: 5 })).structuredContent!.data).toHaveLength(2);
    const missing = await callTool(client, "create_highlight", { source_id: id, exact: "sourdough" });
    expect(missing.isError).toBe(true);
    expect(JSON.parse(missing.content[0]!.text!).errors[0].path).toBe("exact");
    const bad = await callTool(client, "list_highlights", { color: "red" });
    expect(bad.isError).toBe(true);
    await client.close();

    const intruder = await mcpClient(ctx, other.key);
    expect((await callTool(intruder, "list_highlights", {})).structuredContent!.data).toEqual([]);
    const theirs = await callTool(intruder, "create_highlight", { source_id: id, exact: "A long proof" });
    expect(theirs.isError).toBe(true);
    expect(JSON.stringify(theirs)).not.toContain("Try overnight");
    await intruder.close();
  });
});
