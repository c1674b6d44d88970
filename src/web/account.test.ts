// Settings and Settings → Account: the index of settings pages, plan and credits with their spending,
// and changing the password (others signed out, this session kept; errors beside the fields).
import { afterAll, describe, expect, test } from "bun:test";
import { call } from "../../test/helpers.ts";
import { startOutsideWeb } from "../../test/outside-web.ts";
import { post, setup, signedInPerson } from "./library/test-helpers.ts";
import { testBrowser } from "../../test/browser-client.ts";
import { sqlRows } from "../db/inspect.ts";

const web = startOutsideWeb();
afterAll(() => web.stop());

const passwordForm = (current: string, next: string) => ({ current_password: current, new_password: next });

describe("Settings", () => {
  test("the index links every settings page; /account leads to the account page", async () => {
    const { b } = await setup();
    const page = await b.get("/settings");
    expect(page.status).toBe(200);
    for (const href of [
      "/settings/account",
      "/settings/keys",
      "/settings/webhook-tokens",
      "/feeds",
      "/settings/apps",
      "/settings/outbox",
    ]) {
      expect(page.text).toContain(`<a href="${href}">`);
    }
    const account = await b.get("/account");
    expect([account.status, account.location]).toEqual([303, "/settings/account"]);
  });

  test("signed out, settings pages send to sign in and come back", async () => {
    const { ctx } = await setup();
    const anon = testBrowser(ctx);
    expect((await anon.get("/settings")).location).toBe(`/signin?next=${encodeURIComponent("/settings")}`);
    expect((await anon.get("/settings/account")).location).toBe(
      `/signin?next=${encodeURIComponent("/settings/account")}`,
    );
  });

  test("the navigation names each place plainly", async () => {
    const { b } = await setup();
    const nav = /<nav aria-label="Main">([\s\S]*?)<\/nav>/.exec((await b.get("/library")).text)![1]!;
    const links = [...nav.matchAll(/<a href="([^"]+)"(?: aria-current="page")?>([^<]+)<\/a>/g)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(links).toEqual([
      ["/library", "Library"],
      ["/notebooks", "Notebooks"],
      ["/notes", "Notes"],
      ["/search", "Search"],
      ["/podcasts", "Podcasts"],
      ["/feeds", "Feeds"],
      ["/workflows", "Workflows"],
      ["/settings", "Settings"],
    ]);
    expect(nav).not.toContain("→");
  });
});

describe("Account", () => {
  test("plan, credits used and remaining, the period, and each spend in words", async () => {
    const { ctx, b, me } = await setup({ DEFAULT_MONTHLY_CREDITS: "50" });
    const before = await b.get("/settings/account");
    expect(before.status).toBe(200);
    expect(before.text).toContain("<strong>Free</strong> plan: 50 credits a month.");
    expect(before.text).toContain('<dd id="credits-remaining">50</dd>');
    expect(before.text).toContain("No credits spent yet.");

    // A question asked over the API about a saved article, and a podcast that no longer exists.
    await post(ctx, b, "/library/sources", { url: web.url("/article") });
    await ctx.runner.drain();
    const asked = await call(ctx, "POST", "/api/v1/search/ask", {
      key: me.key,
      body: { question: "What is in a tide pool?" },
    });
    expect(asked.status).toBe(200);
    expect(asked.body.credits_used).toBeGreaterThan(0);
    await ctx.services.credits.spend(me.userId, 3, "podcast", "pod_01J00000000000000000000000");
    const after = await b.get("/settings/account");
    const b0 = await ctx.services.credits.balance(me.userId);
    expect(after.text).toContain(`<dd id="credits-used-count">${b0.used}</dd>`);
    expect(after.text).toContain(`<dd id="credits-remaining">${50 - b0.used}</dd>`);
    expect(after.text).toContain(`<meter id="credits-used" min="0" max="50" value="${b0.used}">`);
    expect(after.text).toContain(
      `${b0.period_start.slice(0, 10)}</time> to <time datetime="${b0.period_end}">${b0.period_end.slice(0, 10)}`,
    );
    const rows = [
      ...after.text.matchAll(/<td data-label="What">(.*?)<\/td>\s*<td data-label="Credits">(\d+)<\/td>/g),
    ].map((m) => [m[1], m[2]]);
    expect(rows).toEqual([
      ["A podcast since deleted", "3"],
      ["Asked a question", String(asked.body.credits_used)],
    ]);
  });

  test("a spend on an existing podcast links to it, its title escaped", async () => {
    const { ctx, b, me } = await setup();
    const actor = { userId: me.userId, auth: { type: "system" as const, reason: "test" } };
    const src = (await ctx.services.sources.create(actor, { url: "https://example.com/x" })).source.id;
    await sqlRows(
      ctx.db,
      "UPDATE sources SET status = 'ready', content = 'Some words here about pools.' , word_count = 5 WHERE id = ?",
      src,
    );
    const pod = await ctx.services.podcasts.create(actor, {
      format: "brief",
      source_ids: [src],
      title: "<i>Pools</i>",
    });
    await ctx.services.credits.spend(me.userId, 2, "podcast", pod.id);
    const page = await b.get("/settings/account");
    expect(page.text).toContain(`<a href="/podcasts/${pod.id}">Podcast “&lt;i&gt;Pools&lt;/i&gt;”</a>`);
  });
});

describe("changing the password", () => {
  test("signs out every other session, keeps this one, and the new password is the one that works", async () => {
    const { ctx, b, me } = await setup();
    const laptop = testBrowser(ctx);
    expect((await laptop.submit("/signin", "/signin", { email: me.email, password: "password123" })).status).toBe(303);
    expect((await laptop.get("/library")).status).toBe(200);

    const done = await post(ctx, b, "/settings/account/password", passwordForm("password123", "a new long password"));
    expect([done.status, done.location]).toEqual([303, "/settings/account?notice=password_changed"]);
    const shown = await b.get(done.location!);
    expect(shown.text).toContain("Your password was changed.");
    expect((await b.get("/library")).status).toBe(200);
    expect((await laptop.get("/library")).location).toBe("/signin?next=%2Flibrary");

    const old = await testBrowser(ctx).submit("/signin", "/signin", { email: me.email, password: "password123" });
    expect(old.status).toBe(401);
    const fresh = await testBrowser(ctx).submit("/signin", "/signin", {
      email: me.email,
      password: "a new long password",
    });
    expect(fresh.status).toBe(303);
  }, 30_000);

  test("errors show beside their fields with the sign-up rules' messages; passwords are never echoed", async () => {
    const { ctx, b } = await setup();
    const wrong = await post(
      ctx,
      b,
      "/settings/account/password",
      passwordForm("not-my-password", "a new long password"),
    );
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain('<p class="field-error" id="f-current_password-error">Current password is wrong.</p>');
    expect(wrong.text).toContain('aria-describedby="f-current_password-error"');
    expect(wrong.text).not.toContain("not-my-password");
    expect(wrong.text).not.toContain("a new long password");

    const short = await post(ctx, b, "/settings/account/password", passwordForm("password123", "short"));
    expect(short.status).toBe(422);
    expect(short.text).toContain(
      '<p class="field-error" id="f-new_password-error">New password must be at least 8 characters.</p>',
    );

    const empty = await post(ctx, b, "/settings/account/password", passwordForm("", "a new long password"));
    expect(empty.text).toContain("Enter your current password.");
    const same = await post(ctx, b, "/settings/account/password", passwordForm("password123", "password123"));
    expect(same.text).toContain("New password must differ from the current password.");
    // Nothing changed: the old password still signs in.
    const u = await signedInPerson(ctx);
    expect(u.userId).toBeTruthy();
  }, 30_000);

  test("a form sent back with errors keeps the person's choice of revoking keys and focuses the first error", async () => {
    const { ctx, b } = await setup();
    const fresh = await b.get("/settings/account");
    expect(fresh.text).toContain('<input type="checkbox" name="revoke_keys" value="1" checked>');
    expect(fresh.text).not.toContain(" autofocus");

    const unticked = await post(ctx, b, "/settings/account/password", passwordForm("not-my-password", "long enough"));
    expect(unticked.status).toBe(422);
    expect(unticked.text).toContain('<input type="checkbox" name="revoke_keys" value="1">');
    expect(unticked.text).toMatch(/<input id="f-current_password"[^>]* autofocus/);

    const ticked = await post(ctx, b, "/settings/account/password", {
      ...passwordForm("password123", "short"),
      revoke_keys: "1",
    });
    expect(ticked.status).toBe(422);
    expect(ticked.text).toContain('<input type="checkbox" name="revoke_keys" value="1" checked>');
    expect(ticked.text).toMatch(/<input id="f-new_password"[^>]* autofocus/);
    expect(ticked.text).not.toMatch(/<input id="f-current_password"[^>]* autofocus/);
  }, 30_000);

  test("a form without the session's token is refused; guesses are rate limited beside the field", async () => {
    const { ctx, b } = await setup({ LOGIN_RATE_LIMIT_PER_MINUTE: "3" }); // signing in used one;
    const forged = await b.post("/settings/account/password", {
      csrf: "x".repeat(32),
      ...passwordForm("password123", "a new long password"),
    });
    expect(forged.status).toBe(403);
    for (let i = 0; i < 2; i++)
      expect(
        (await post(ctx, b, "/settings/account/password", passwordForm(`guess-${i}`, "a new long password"))).status,
      ).toBe(422);
    const limited = await post(
      ctx,
      b,
      "/settings/account/password",
      passwordForm("password123", "a new long password"),
    );
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited.text).toMatch(
      /id="f-current_password-error">Too many password attempts\. Try again in \d+ seconds\./,
    );
  }, 30_000);
});
