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
