// POST /mcp: MCP Streamable HTTP (stateless, JSON responses) for OAuth access tokens issued for this
// resource and for personal API keys. Origin is checked first (DNS rebinding), then the bearer.
import { bearerToken } from "../../http/bearer.ts";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Elysia } from "elysia";
import { AppError } from "../../errors.ts";
import { readJson } from "../../http/body.ts";
import { metaOf } from "../../http/context.ts";
import { checkRate, type RateLimiter } from "../../http/rate-limiter.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../log.ts";
import type { KeysService } from "../keys/service.ts";
import type { OAuthService } from "../oauth/service.ts";
import type { ToolServices } from "./tools.ts";
import type { Actor } from "../../actor.ts";
import { resourceMetadataUrl } from "../oauth/metadata.ts";
import { createMcpServer } from "./server.ts";

/** Transport-level failures as JSON-RPC error objects (there is no request id to answer yet). */
function rpcError(status: number, message: string, headers: Record<string, string> = {}, code = -32000): Response {
  const body = { jsonrpc: "2.0", id: null, error: { code, message } };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** What the endpoint needs: bearer checks, limits, and the services the tools call. */
export interface McpDeps extends ToolServices {
  oauth: OAuthService;
  keys: KeysService;
  config: Pick<Config, "baseUrl" | "http">;
  logger: Logger;
  limiter: RateLimiter;
}

export function mcpRoutes(s: McpDeps) {
  const resource = s.oauth.mcpResource;
  const ourOrigin = new URL(s.config.baseUrl).origin;
  const metadataUrl = resourceMetadataUrl(resource);

  /** RFC 6750 §3 challenge pointing at our RFC 9728 metadata, so clients can discover how to sign in. */
  function unauthorized(message: string, error?: "invalid_request" | "invalid_token"): Response {
    let challenge = `Bearer resource_metadata="${metadataUrl}", scope="mcp"`;
    if (error) challenge += `, error="${error}", error_description="${message.replace(/["\\]/g, "'")}"`;
    return rpcError(401, message, { "www-authenticate": challenge });
  }

  async function authenticate(request: Request): Promise<Actor | Response> {
    const bearer = bearerToken(request);
    if ("problem" in bearer) {
      if (bearer.problem === "missing")
        return unauthorized("Authorization required: connect with OAuth, or send a personal API key as a bearer token");
      return unauthorized("The Authorization header must be `Bearer <token>`", "invalid_request");
    }
    const { token } = bearer;
    if (token.startsWith("cpk_")) {
      try {
        return await s.keys.authenticate(token);
      } catch (e) {
        if (e instanceof AppError) return unauthorized(e.detail ?? "Invalid API key", "invalid_token");
        throw e;
      }
    }
    const check = await s.oauth.verifyAccess(token, resource);
    return check.ok ? check.actor : unauthorized(check.reason, "invalid_token");
  }

  const notAllowed = () =>
    rpcError(405, "This server is stateless: send JSON-RPC messages with POST", { allow: "POST" });

  return (
    new Elysia()
      // POST /mcp
      .post(
        "/mcp",
        async ({ request }) => {
          const origin = request.headers.get("origin");
          if (origin !== null && origin !== ourOrigin) return rpcError(403, `Origin ${origin} is not allowed`);
          const actor = await authenticate(request);
          if (actor instanceof Response) return actor;
          metaOf(request).actor = actor;
          const rate = await checkRate(s.limiter, actor.userId);
          const limitHeaders = rate.headers;
          if (!rate.allowed)
            return rpcError(429, `Rate limit reached; retry in ${rate.decision.resetSeconds} s`, limitHeaders);

          // The body is read here, within the size and nesting limits, and handed to the SDK parsed.
          // Limits are the HTTP layer's (problem+json, like every 413); a parse error is JSON-RPC's own.
          let parsedBody: unknown;
          try {
            parsedBody = await readJson(request, {
              maxBytes: s.config.http.maxBodyBytes,
              maxDepth: s.config.http.maxJsonDepth,
            });
          } catch (e) {
            if (e instanceof AppError && e.code === "malformed_json")
              return rpcError(400, `Parse error: ${e.detail}`, limitHeaders, -32700);
            if (e instanceof AppError)
              throw new AppError(e.code, e.detail, { ...e.extra, headers: { ...limitHeaders, ...e.extra.headers } });
            throw e;
          }
          const server = createMcpServer({ services: s, actor, logger: s.logger });
          const transport = new WebStandardStreamableHTTPServerTransport({
            sessionIdGenerator: undefined,
            enableJsonResponse: true,
          });
          await server.connect(transport);
          try {
            const res = await transport.handleRequest(request, { parsedBody });
            for (const [k, v] of Object.entries(limitHeaders)) res.headers.set(k, v);
            return res;
          } finally {
            await server.close();
          }
        },
        { parse: "none" },
      )
      // GET /mcp, DELETE /mcp: no server-initiated stream and no sessions to end.
      .get("/mcp", notAllowed)
      .delete("/mcp", notAllowed)
  );
}
