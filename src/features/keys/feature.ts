// The keys feature: personal API keys (bearer auth checks them) and /api/v1/keys.
import type { ChangeWatch } from "../../db/change-watch.ts";
import type { Transactor } from "../../db/port.ts";
import type { Clock } from "../../time.ts";
import type { Feature } from "../feature.ts";
import type { KeysRepo } from "./repo.ts";
import { keyRoutes } from "./routes.ts";
import { createKeysService, type KeysService } from "./service.ts";

export interface KeysFeatureDeps {
  repo: KeysRepo;
  db: Transactor;
  changes: ChangeWatch;
  clock: Clock;
}

export function createKeysFeature(d: KeysFeatureDeps): Feature<KeysService> {
  const service = createKeysService(d);
  return { name: "keys", service, api: keyRoutes({ keys: service }) };
}
