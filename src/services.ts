// Builds every service from its dependencies in one place: the composition root for app, runner and CLI.
import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import { createLogger, type Logger } from "./log.ts";
import { systemClock, type Clock } from "./time.ts";
import { createAccountsRepo } from "./features/accounts/repo.ts";
import { createAccountsService } from "./features/accounts/service.ts";
import { createCreditsRepo } from "./features/credits/repo.ts";
import { createCreditsService } from "./features/credits/service.ts";
import { createKeysRepo } from "./features/keys/repo.ts";
import { createKeysService } from "./features/keys/service.ts";

export interface CoreDeps {
  config: Config;
  db: Db;
  clock?: Clock;
  logger?: Logger;
}

export function createServices(deps: CoreDeps) {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? createLogger(config.logLevel);
  const accountsRepo = createAccountsRepo(db.orm);
  const accounts = createAccountsService({ repo: accountsRepo, clock, config });
  const keys = createKeysService({ repo: createKeysRepo(db.orm), sqlite: db.sqlite, clock });
  const credits = createCreditsService({ repo: createCreditsRepo(db.orm), accounts: accountsRepo, sqlite: db.sqlite, clock, config });
  return { config, db, clock, logger, accounts, keys, credits };
}
export type Services = ReturnType<typeof createServices>;
