// WebDeps: the services the server-rendered pages call, listed once so page groups never see the whole root.
import type { Config } from "../../config.ts";
import type { Db } from "../../db/port.ts";
import type { Logger } from "../../log.ts";
import type { Clock } from "../../time.ts";
import type { AccountsService } from "../accounts/service.ts";
import type { CreditsService } from "../credits/service.ts";
import type { StreamDeps } from "../events/stream.ts";
import type { FeedsService } from "../feeds/service.ts";
import type { ImportsService } from "../imports/service.ts";
import type { KeysService } from "../keys/service.ts";
import type { MailService } from "../mail/service.ts";
import type { NotebooksService } from "../notebooks/service.ts";
import type { NotesService } from "../notes/service.ts";
import type { OAuthService } from "../oauth/service.ts";
import type { PodcastsService } from "../podcasts/service.ts";
import type { AskService } from "../search/ask.ts";
import type { SearchService } from "../search/service.ts";
import type { SourcesService } from "../sources/service.ts";
import type { WebhookTokensService } from "../webhooks/service.ts";
import type { Runs } from "../workflows/runs.ts";
import type { WorkflowsService } from "../workflows/service.ts";

export interface WebDeps {
  config: Config;
  /** Only to choose where shared state lives (rate limits, form guards): in memory or in PostgreSQL. */
  db: Db;
  clock: Clock;
  logger: Logger;
  accounts: AccountsService;
  keys: KeysService;
  credits: CreditsService;
  oauth: OAuthService;
  sources: SourcesService;
  notebooks: NotebooksService;
  notes: NotesService;
  search: SearchService;
  ask: AskService;
  podcasts: PodcastsService;
  imports: ImportsService;
  feeds: FeedsService;
  webhookTokens: WebhookTokensService;
  workflows: { service: WorkflowsService; runs: Runs };
  /** The outbox: mail a user's workflows kept while no SMTP server was configured. */
  mail: Pick<MailService, "outbox">;
  live: StreamDeps;
}
