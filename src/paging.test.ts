// The paging helper over a plain newest-first list: exact and last pages, empty lists, cursors, bad cursors.
import { describe, expect, test } from "bun:test";
import { AppError } from "./errors.ts";
import { decodeCursor, encodeCursor, mapPage, nextKey, paginate, walk } from "./paging.ts";

// ids sort like our time-sortable ids: newest first is descending order.
const ROWS = ["r5", "r4", "r3", "r2", "r1"].map((id) => ({ id }));

/** A fetch over ROWS like a repository's: newest first, rows before the key, at most `limit`; records each call. */
function source(rows = ROWS) {
  const calls: { limit: number; before?: string }[] = [];
  const fetch = async (o: { limit: number; before?: string }) => {
    calls.push(o);
    return rows.filter((r) => o.before === undefined || r.id < o.before).slice(0, o.limit);
  };
  return { fetch, calls };
}

describe("paginate", () => {
  test("asks for one row more than the page and keeps the page, with a cursor to the rest", async () => {
    const { fetch, calls } = source();
    const page = await paginate(2, undefined, fetch);
    expect(calls).toEqual([{ limit: 3 }]);
    expect(page.data.map((r) => r.id)).toEqual(["r5", "r4"]);
    expect(page.next_cursor).not.toBeNull();
    expect(decodeCursor(page.next_cursor!)).toBe("r4");
  });

  test("the cursor round trip walks every row once and the last page has no cursor", async () => {
    const { fetch, calls } = source();
    const first = await paginate(2, undefined, fetch);
    const second = await paginate(2, first.next_cursor!, fetch);
    const last = await paginate(2, second.next_cursor!, fetch);
    expect(calls[1]).toEqual({ limit: 3, before: "r4" });
    expect([...first.data, ...second.data, ...last.data].map((r) => r.id)).toEqual(ROWS.map((r) => r.id));
    expect(last.data.map((r) => r.id)).toEqual(["r1"]);
    expect(last.next_cursor).toBeNull();
  });

  test("a page exactly as long as what is left has no cursor (no empty page follows)", async () => {
    const { fetch } = source();
    const page = await paginate(5, undefined, fetch);
    expect(page.data).toHaveLength(5);
    expect(page.next_cursor).toBeNull();
  });

  test("an empty list is an empty page", async () => {
    const { fetch } = source([]);
    expect(await paginate(20, undefined, fetch)).toEqual({ data: [], next_cursor: null });
  });

  test("an empty cursor is the first page", async () => {
    const { fetch, calls } = source();
    await paginate(2, "", fetch);
    expect(calls).toEqual([{ limit: 3 }]);
  });

  test("a compound key makes the cursor when given", async () => {
    const rows = ROWS.map((r, i) => ({ ...r, at: `2026-01-0${9 - i}` }));
    const page = await paginate(
      1,
      undefined,
      async (o) => rows.slice(0, o.limit),
      (r) => `${r.at}|${r.id}`,
    );
    expect(decodeCursor(page.next_cursor!)).toBe("2026-01-09|r5");
  });

  test.each([
    ["not base64 JSON", "!!!"],
    ["JSON without the key", Buffer.from(JSON.stringify({ x: 1 })).toString("base64url")],
    ["a key that is not a string", Buffer.from(JSON.stringify({ b: 7 })).toString("base64url")],
    ["an overlong key", encodeCursor("x".repeat(100))],
  ])("a cursor this code did not issue (%s) is a 422 validation error, before any read", async (_, cursor) => {
    const { fetch, calls } = source();
    let err: unknown;
    try {
      await paginate(2, cursor, fetch);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("validation_failed");
    expect((err as AppError).status).toBe(422);
    expect(calls).toEqual([]);
  });
});

describe("helpers", () => {
  test("mapPage maps only the kept rows and keeps the cursor", async () => {
    const { fetch } = source();
    const mapped: string[] = [];
    const page = await mapPage(await paginate(2, undefined, fetch), (rows) =>
      rows.map((r) => {
        mapped.push(r.id);
        return r.id.toUpperCase();
      }),
    );
    expect(page.data).toEqual(["R5", "R4"]);
    expect(mapped).toEqual(["r5", "r4"]);
    expect(nextKey(page)).toBe("r4");
  });

  test("walk reads a paged list to its end", async () => {
    const { fetch } = source();
    const seen: string[] = [];
    for await (const r of walk((cursor) => paginate(2, cursor, fetch))) seen.push(r.id);
    expect(seen).toEqual(ROWS.map((r) => r.id));
  });

  test("nextKey of a last page is null", () => {
    expect(nextKey({ data: [], next_cursor: null })).toBeNull();
  });
});
