// The idempotency repository on the Db port: claim, finish, find per user, and the 24-hour sweep.
import { describe, expect, test } from "bun:test";
import { openTestDatabase } from "../db/client.ts";
import { createIdempotencyRepo } from "./idempotency-repo.ts";

describe("idempotency repo", () => {
  test("a claim is found in progress, then done with its response; keys are per user", async () => {
    const repo = createIdempotencyRepo(openTestDatabase());
    await repo.claim({
      userId: "usr_a",
      key: "k",
      method: "POST",
      path: "/api/v1/notebooks",
      requestHash: "h1",
      createdAt: "2024-01-01T00:00:00.000Z",
    });
    expect(await repo.find("usr_a", "k")).toEqual({
      requestHash: "h1",
      state: "in_progress",
      responseStatus: null,
      responseHeaders: null,
      responseBody: null,
      createdAt: "2024-01-01T00:00:00.000Z",
    });
    expect(await repo.find("usr_b", "k")).toBeUndefined();
    await expect(
      repo.claim({
        userId: "usr_a",
        key: "k",
        method: "POST",
        path: "/x",
        requestHash: "h2",
        createdAt: "2024-01-01T00:00:01.000Z",
      }),
    ).rejects.toThrow();
    await repo.finish("usr_a", "k", { status: 201, headers: '{"location":"/x"}', body: '{"id":1}' });
    expect(await repo.find("usr_a", "k")).toMatchObject({
      state: "done",
      responseStatus: 201,
      responseHeaders: '{"location":"/x"}',
      responseBody: '{"id":1}',
    });
    await repo.remove("usr_a", "k");
    expect(await repo.find("usr_a", "k")).toBeUndefined();
  });

  test("sweep drops only records created before the cut-off", async () => {
    const repo = createIdempotencyRepo(openTestDatabase());
    const claim = (key: string, createdAt: string) =>
      repo.claim({ userId: "usr_a", key, method: "POST", path: "/p", requestHash: "h", createdAt });
    await claim("old", "2024-01-01T00:00:00.000Z");
    await claim("new", "2024-01-03T00:00:00.000Z");
    expect(await repo.sweep("2024-01-02T00:00:00.000Z")).toBe(1);
    expect(await repo.find("usr_a", "old")).toBeUndefined();
    expect(await repo.find("usr_a", "new")).toBeDefined();
  });
});

describe("idempotency claimOrFind", () => {
  const claim = (requestHash: string, createdAt: string) => ({
    userId: "usr_a",
    key: "k",
    method: "POST",
    path: "/api/v1/notebooks",
    requestHash,
    createdAt,
  });

  test("requests racing with one key: exactly one claims it, the others see its claim", async () => {
    const repo = createIdempotencyRepo(openTestDatabase());
    for (const n of [2, 4]) {
      const c = { ...claim("h", "2024-01-02T00:00:00.000Z"), key: `race-${n}` };
      const results = await Promise.all(Array.from({ length: n }, () => repo.claimOrFind(c, "2024-01-01")));
      expect(results.filter((r) => r === undefined)).toHaveLength(1);
      for (const r of results.filter(Boolean)) expect(r).toMatchObject({ state: "in_progress", requestHash: "h" });
    }
  });

  test("a live record is returned as it is; an expired one is taken over; a released key is free", async () => {
    const repo = createIdempotencyRepo(openTestDatabase());
    expect(await repo.claimOrFind(claim("h1", "2024-01-02T00:00:00.000Z"), "2024-01-01")).toBeUndefined();
    await repo.finish("usr_a", "k", { status: 201, headers: "{}", body: '{"id":1}' });
    expect(await repo.claimOrFind(claim("h2", "2024-01-02T00:00:01.000Z"), "2024-01-01")).toEqual({
      requestHash: "h1",
      state: "done",
      responseStatus: 201,
      responseHeaders: "{}",
      responseBody: '{"id":1}',
      createdAt: "2024-01-02T00:00:00.000Z",
    });
    expect(await repo.claimOrFind(claim("h3", "2024-01-05T00:00:00.000Z"), "2024-01-03")).toBeUndefined();
    expect(await repo.find("usr_a", "k")).toEqual({
      requestHash: "h3",
      state: "in_progress",
      responseStatus: null,
      responseHeaders: null,
      responseBody: null,
      createdAt: "2024-01-05T00:00:00.000Z",
    });
    await repo.remove("usr_a", "k");
    expect(await repo.claimOrFind(claim("h4", "2024-01-05T00:00:01.000Z"), "2024-01-03")).toBeUndefined();
    expect(await repo.find("usr_a", "k")).toMatchObject({ requestHash: "h4" });
  });
});
