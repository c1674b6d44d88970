// Test helpers: the MCP SDK's own client over app.handle, and raw JSON-RPC posts to /mcp.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { call, type TestContext } from "../../../test/helpers.ts";

export async function mcpClient(ctx: TestContext, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${ctx.config.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: async (url, init) => ctx.app.handle(new Request(url, init)),
  });
  const client = new Client({ name: "commonplace-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

export const ACCEPT = "application/json, text/event-stream";

export function rpc(
  ctx: TestContext,
  token: string | undefined,
  message: unknown,
  headers: Record<string, string> = {},
) {
  return call(ctx, "POST", "/mcp", { key: token, body: message, headers: { accept: ACCEPT, ...headers } });
}

export const initialize = (protocolVersion: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
