// Liveness (/healthz), readiness (/readyz) and the problem type pages that error `type`s point at.
import { Elysia, t } from "elysia";
import { ERROR_CODES, isErrorCode } from "../../errors.ts";

/** `health.ping` rejects when the database does not answer. */
export function healthRoutes(health: { ping(): Promise<unknown> }) {
  return new Elysia({ tags: ["Health"] })
    .get("/healthz", () => ({ status: "ok" }), { detail: { summary: "The process is alive" } })
    .get(
      "/readyz",
      async ({ set }) => {
        try {
          await health.ping();
          return { status: "ok", database: "ok" };
        } catch {
          set.status = 503;
          return { status: "unavailable", database: "error" };
        }
      },
      { detail: { summary: "The database answers" } },
    )
    .get(
      "/api/problems/:code",
      ({ params, set }) => {
        if (!isErrorCode(params.code)) {
          set.status = 404;
          return { code: params.code, title: "Unknown problem type" };
        }
        const [status, title] = ERROR_CODES[params.code];
        return { code: params.code, status, title };
      },
      { params: t.Object({ code: t.String() }), detail: { hide: true } },
    );
}
