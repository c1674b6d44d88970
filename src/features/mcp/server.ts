// One MCP server per request (the transport is stateless): lists the tools with their JSON Schemas
// and runs a call as the authenticated user, answering with text plus structuredContent.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../../errors.ts";
import type { Logger } from "../../log.ts";
import type { Actor } from "../../actor.ts";
import { checkArguments, toJsonSchema } from "./schema.ts";
import { TOOLS, type ToolDef, type ToolServices } from "./tools.ts";

export const SERVER_INFO = { name: "commonplace", title: "Commonplace", version: "1.0.0" };
const INSTRUCTIONS =
  "Commonplace is the user's personal library of saved web pages, PDFs and notes. Use search to find passages, ask for a cited answer, get_source to read a whole source.";

// The server only validates JSON Schemas for elicitation, which these tools never use; skipping
// the default validator saves building an Ajv instance on every request.
const noValidator: jsonSchemaValidator = {
  getValidator: () => () => ({
    valid: false,
    data: undefined,
    errorMessage: "schema validation is not used by this server",
  }),
};

/** Computed once, on first use: the tool list never changes while the process runs. */
let listing: Tool[] | undefined;
const toolList = (): Tool[] =>
  (listing ??= TOOLS.map((d) => ({
    name: d.name,
    title: d.title,
    description: d.description,
    inputSchema: toJsonSchema(d.input),
    outputSchema: toJsonSchema(d.output),
    annotations: {
      title: d.title,
      readOnlyHint: d.readOnly,
      destructiveHint: false,
      openWorldHint: d.name === "save_source",
    },
  })));
const byName = new Map(TOOLS.map((d) => [d.name, d]));

function failure(payload: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(payload) }], isError: true };
}

export async function callTool(
  def: ToolDef,
  services: ToolServices,
  actor: Actor,
  args: unknown,
  logger: Logger,
): Promise<CallToolResult> {
  const checked = checkArguments<never>(def.input, args);
  // Invalid arguments are a tool error, not a protocol error, so the model can read and retry.
  if (!checked.ok)
    return failure({
      code: "validation_failed",
      detail: "The arguments do not match the tool's input schema",
      errors: checked.errors,
    });
  try {
    const result = await def.run(services, actor, checked.value);
    return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
  } catch (e) {
    if (e instanceof AppError)
      return failure({
        code: e.code,
        detail: e.detail ?? e.message,
        ...(e.extra.errors ? { errors: e.extra.errors } : {}),
      });
    logger.error("mcp tool failed", {
      tool: def.name,
      error: e instanceof Error ? { message: e.message, stack: e.stack } : String(e),
    });
    return failure({ code: "internal_error", detail: "The tool failed on the server's side" });
  }
}

export function createMcpServer(deps: { services: ToolServices; actor: Actor; logger: Logger }): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: noValidator,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const def = byName.get(request.params.name);
    if (!def) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return callTool(def, deps.services, deps.actor, request.params.arguments ?? {}, deps.logger);
  });
  return server;
}
