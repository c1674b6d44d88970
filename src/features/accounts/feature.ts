// The accounts feature: users and sessions, and /api/v1/me (with the caller's credit balance).
import type { Config } from "../../config.ts";
import type { ChangeWatch } from "../../db/change-watch.ts";
import type { Transactor } from "../../db/port.ts";
import type { Clock } from "../../time.ts";
import type { CreditsService } from "../credits/service.ts";
import type { Feature } from "../feature.ts";
import type { AccountsRepo } from "./repo.ts";
import { accountRoutes } from "./routes.ts";
import { type AccountsService, createAccountsService } from "./service.ts";

export interface AccountsFeatureDeps {
  repo: AccountsRepo;
  clock: Clock;
  config: Config;
  db: Transactor;
  changes: ChangeWatch;
  credits: CreditsService;
}

export function createAccountsFeature(d: AccountsFeatureDeps): Feature<AccountsService> {
  const service = createAccountsService(d);
  return { name: "accounts", service, api: accountRoutes({ accounts: service, credits: d.credits }) };
}
