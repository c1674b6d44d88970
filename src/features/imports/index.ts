// Builds the imports feature and registers its job: the composition root calls these.
import { t } from "elysia";
import type { Runner } from "../../jobs/runner.ts";
import { defineJob } from "../../jobs/types.ts";
import { createImportsService, IMPORT_JOB, type ImportsDeps, type ImportsService } from "./service.ts";

export function createImports(deps: ImportsDeps): ImportsService {
  return createImportsService(deps);
}

export function registerImportJob(runner: Runner, service: ImportsService): void {
  runner.register(
    IMPORT_JOB,
    defineJob({
      payload: t.Object({ import_id: t.String() }),
      maxAttempts: 5,
      handle: (p, ctx) => service.run(p.import_id, ctx.signal),
    }),
  );
}
