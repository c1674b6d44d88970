// WebDeps: the services the server-rendered pages call, listed once so page groups never see the whole root.
// Each page group takes the few it uses (a Pick of WebDeps); none takes the database.
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import type { Clock } from "../time.ts";
import type { AccountsService } from "../features/accounts/service.ts";
import type { CreditsService } from "../features/credits/service.ts";
import type { StreamDeps } from "../features/events/stream.ts";
import type { FeedsService } from "../features/feeds/service.ts";
import type { ImportsService } from "../features/imports/service.ts";
import type { KeysService } from "../features/keys/service.ts";
import type { MailService } from "../features/mail/service.ts";
import type { NotebooksService } from "../features/library/notebooks/service.ts";
import type { HighlightsService } from "../features/library/highlights/service.ts";
import type { TaggingService } from "../features/library/tagging/feature.ts";
import type { NotesService } from "../features/library/notes/service.ts";
import type { OAuthService } from "../features/oauth/service.ts";
import type { PodcastsService } from "../features/podcasts/service.ts";
import type { AskService } from "../features/search/ask.ts";
import type { SearchService } from "../features/search/service.ts";
import type { SearchQualityService } from "../features/search-quality/service.ts";
import type { SourcesService } from "../features/library/sources/service.ts";
import type { WebhookTokensService } from "../features/webhooks/service.ts";
import type { Runs } from "../features/workflows/runs.ts";
import type { WorkflowsService } from "../features/workflows/service.ts";
import type { FormGuard } from "./form-guard.ts";
import type { WebService } from "./service.ts";

export interface WebDeps {
  config: Config;
  clock: Clock;
  logger: Logger;
  accounts: AccountsService;
  keys: KeysService;
  credits: CreditsService;
  oauth: OAuthService;
  sources: SourcesService;
  notebooks: NotebooksService;
  notes: NotesService;
  highlights: HighlightsService;
  tagging: TaggingService;
  search: SearchService;
  ask: AskService;
  searchQuality: SearchQualityService;
  podcasts: PodcastsService;
  imports: ImportsService;
  feeds: FeedsService;
  webhookTokens: WebhookTokensService;
  workflows: { service: WorkflowsService; runs: Runs };
  /** The outbox: mail a user's workflows kept while no SMTP server was configured. */
  mail: Pick<MailService, "outbox">;
  live: StreamDeps;
  /** The web app's own service: sign-in and sign-up (rate limited), sessions, API key forms. */
  web: WebService;
  /** Webhook token create forms already answered (a resubmitted form must not make a second token). */
  tokenForms: FormGuard;
}
