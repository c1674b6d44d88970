// The MCP feature: POST /mcp for OAuth access tokens and API keys, over the tools' services.
import type { Feature } from "../feature.ts";
import { type McpDeps, mcpRoutes } from "./routes.ts";

export function createMcpFeature(d: McpDeps): Feature<null> {
  return { name: "mcp", service: null, routes: mcpRoutes(d) };
}
