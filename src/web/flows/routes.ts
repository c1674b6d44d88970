// The workflows part of the web app: the editor, workflows and their runs, webhook tokens and feeds.
// It reuses the web app's session, CSRF and error-page helpers handed over by webRoutes.
import { Elysia } from "elysia";
import type { WebDeps } from "../deps.ts";
import type { WebHelpers } from "../oauth-routes.ts";
import { editorWebRoutes } from "./editor-routes.ts";
import { feedWebRoutes } from "./feed-routes.ts";
import { runWebRoutes } from "./run-routes.ts";
import { tokenWebRoutes } from "./token-routes.ts";
import { workflowWebRoutes } from "./workflow-routes.ts";

export function flowsWebRoutes(
  s: Pick<WebDeps, "clock" | "feeds" | "live" | "notebooks" | "tokenForms" | "webhookTokens" | "workflows">,
  h: WebHelpers,
) {
  // The editor first: /workflows/new must not be read as a workflow id.
  return new Elysia()
    .use(editorWebRoutes(s, h))
    .use(workflowWebRoutes(s, h))
    .use(runWebRoutes(s, h))
    .use(tokenWebRoutes(s, h))
    .use(feedWebRoutes(s, h));
}
