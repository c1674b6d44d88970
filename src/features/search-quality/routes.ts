// POST and GET /api/v1/search/quality: start a self-test of the caller's library, read the latest one.
import { Elysia } from "elysia";
import { actorOf } from "../../http/auth.ts";
import { QualityRunPublic, QualityStart } from "./schema.ts";
import type { SearchQualityService } from "./service.ts";

export function searchQualityRoutes(s: { quality: SearchQualityService }) {
  return (
    new Elysia({ prefix: "/search/quality", tags: ["Search"] })
      // POST /api/v1/search/quality
      .post(
        "/",
        async ({ request, body, set }) => {
          const { run } = await s.quality.start(actorOf(request), body);
          set.status = 202;
          set.headers["location"] = "/api/v1/search/quality";
          return run;
        },
        {
          body: QualityStart,
          response: { 202: QualityRunPublic },
          detail: {
            operationId: "startSearchQuality",
            summary: "Measure how well search finds your own sources (202, runs in the background)",
            description:
              "Body: `{}` for the defaults, or `sample` and `seed`. Draws up to `sample` ready sources at random (seeded; `seed` repeats a run), makes known-item queries from each (its title, one of its headings, and its first sentence with the rarest words dropped and the function words shuffled) and runs every query in `text`, `vector` and `hybrid` mode, counting how often the source comes first (recall@1) and in the top five (recall@5). Runs as a background job; follow it with `GET /api/v1/search/quality`. While a run is queued or running, starting again returns that run. 409 when the library has fewer than 5 ready sources.",
          },
        },
      )
      // GET /api/v1/search/quality
      .get("/", ({ request }) => s.quality.latest(actorOf(request)), {
        response: QualityRunPublic,
        detail: {
          operationId: "getSearchQuality",
          summary: "The latest search quality run: progress, then recall per mode and kind of query",
          description:
            "`progress` counts searches made (each query once per mode) while the run is `running`; once `done`, `report` has recall@1 and recall@5 for text, vector and hybrid search, over all queries and per kind (title, heading, paraphrase), with the embedding model vector search used. 404 before the first run.",
        },
      })
  );
}
