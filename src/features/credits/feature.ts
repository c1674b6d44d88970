// The credits feature: AI credit balances and spends; asks and podcasts charge through its service.
import type { Config } from "../../config.ts";
import type { Transactor } from "../../db/port.ts";
import type { Clock } from "../../time.ts";
import type { AccountsRepo } from "../accounts/repo.ts";
import type { Feature } from "../feature.ts";
import type { CreditsRepo } from "./repo.ts";
import { type CreditsService, createCreditsService } from "./service.ts";

export interface CreditsFeatureDeps {
  repo: CreditsRepo;
  accounts: AccountsRepo;
  db: Transactor;
  clock: Clock;
  config: Config;
}

export function createCreditsFeature(d: CreditsFeatureDeps): Feature<CreditsService> {
  return { name: "credits", service: createCreditsService(d) };
}
