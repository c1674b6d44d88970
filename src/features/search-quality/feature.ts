// The search quality feature: a retrieval self-test of the user's own library (Settings → Search
// quality, /api/v1/search/quality, `bun run cli search-quality`). It calls the search service as any
// client does and never changes how search ranks.
import { handleJob } from "../../jobs/types.ts";
import type { Feature } from "../feature.ts";
import { searchQualityRoutes } from "./routes.ts";
import {
  createSearchQualityService,
  SEARCH_QUALITY_JOB,
  type SearchQualityDeps,
  type SearchQualityService,
} from "./service.ts";

export type SearchQualityFeatureDeps = SearchQualityDeps;

export function createSearchQualityFeature(d: SearchQualityFeatureDeps): Feature<SearchQualityService> {
  const service = createSearchQualityService(d);
  return {
    name: "search-quality",
    service,
    api: searchQualityRoutes({ quality: service }),
    jobs: [
      handleJob(SEARCH_QUALITY_JOB, {
        maxAttempts: 3,
        // A background lane: one run at a time, claimed after every other due job.
        maxConcurrent: 1,
        handle: (p, ctx) => service.run(p.run_id, ctx),
      }),
    ],
  };
}
