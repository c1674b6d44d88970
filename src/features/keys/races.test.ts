// A key revoked while a request is being authenticated with it must be refused afterwards.
import { describe, expect, test } from "bun:test";
import { createTestContext, userWithKey } from "../../../test/helpers.ts";
import { interleave, remoteReads } from "../../../test/races.ts";
import { createKeysRepo } from "./repo.ts";
import { createKeysService } from "./service.ts";

describe("keys: revoke racing authenticate", () => {
  test("a lookup that read the row before the revocation does not cache the key", async () => {
    const ctx = createTestContext();
    const db = remoteReads(ctx.db);
    const keys = createKeysService({
      repo: createKeysRepo(db),
      db,
      changes: ctx.services.changes,
      clock: ctx.services.clock,
    });
    const user = await userWithKey(ctx);
    let current = { key: "", keyId: "" };
    await interleave(
      30,
      async () => {
        const { key, row } = await keys.create(user.userId, "racing");
        current = { key, keyId: row.id };
        db.slowNext(40); // authenticate's read answers late, after the revoke has committed
        return { a: () => keys.authenticate(current.key), b: () => keys.revoke(null, current.keyId) };
      },
      async (n) => {
        const after = await keys.authenticate(current.key).then(
          () => "accepted",
          () => "refused",
        );
        expect({ n, after }).toEqual({ n, after: "refused" });
      },
    );
  });
});
