// The OAuth 2.1 authorization server for MCP clients: registration, authorization, tokens,
// verification of access tokens for a resource, and the user's list of connected apps.
import type { Config } from "../../config.ts";
import type { Db } from "../../db/port.ts";
import type { OAuthClientRow } from "../../db/schema/index.ts";
import { notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { BearerResolver } from "../../http/auth.ts";
import { iso, type Clock } from "../../time.ts";
import type { Actor } from "../../actor.ts";
import { createAuthorizer } from "./authorize.ts";
import type { PendingStore } from "./pending.ts";
import type { RateLimiters } from "../../http/rate-limiter.ts";
import { OAuthError } from "./errors.ts";
import { clientInformation, redirectUrisOf, validateRegistration, type ClientInformation } from "./registration.ts";
import type { OAuthRepo } from "./repo.ts";
import { safeClientText } from "./client-text.ts";
import { createTokenIssuer } from "./tokens.ts";

/** Registration is open to anyone, so it is rate limited per address and unused clients are swept. */
export const REGISTRATIONS_PER_HOUR = 30;
export const UNUSED_CLIENT_TTL_MS = 7 * 24 * 3600_000;

export interface ConnectedApp {
  clientId: string;
  name: string;
  redirectHosts: string[];
  clientUri: string | null;
  authorizedAt: string;
  lastUsedAt: string | null;
}

/** The resources tokens may be issued for: the MCP endpoint (and nothing else for now). */
export const mcpResource = (baseUrl: string) => `${baseUrl}/mcp`;

export interface OAuthServiceDeps {
  repo: OAuthRepo;
  db: Db;
  clock: Clock;
  config: Config;
  /** Where parked authorisation requests live (memory with one process, a table on PostgreSQL). */
  pending: PendingStore;
  rateLimiters: RateLimiters;
}

export function createOAuthService(deps: OAuthServiceDeps) {
  const { repo, clock, config } = deps;
  const issuer = config.baseUrl;
  const resources = [mcpResource(config.baseUrl)] as const;
  const authorizer = createAuthorizer({ repo, pending: deps.pending, clock, issuer, resources });
  const tokens = createTokenIssuer({ repo, db: deps.db, clock });
  const registrations = deps.rateLimiters({
    name: "oauth-registration",
    limit: REGISTRATIONS_PER_HOUR,
    windowMs: 3600_000,
    now: () => clock.now(),
  });

  return {
    issuer,
    resources,
    mcpResource: resources[0],

    /** RFC 7591. `address` is the caller's IP when known (the limit is per address). */
    async register(body: unknown, address: string | undefined): Promise<ClientInformation> {
      const d = await registrations.hit(`reg:${address ?? "unknown"}`);
      if (!d.allowed) {
        throw new OAuthError(
          "slow_down",
          `Too many client registrations from this address; retry in ${d.resetSeconds} s`,
          {
            "retry-after": String(d.resetSeconds),
          },
        );
      }
      const now = clock.now();
      const row = validateRegistration(body, newId("oauthClient"), iso(now));
      await repo.deleteUnusedClients(iso(now - UNUSED_CLIENT_TTL_MS));
      await repo.insertClient(row);
      return clientInformation(row);
    },

    client: async (id: string): Promise<OAuthClientRow | undefined> => repo.clientById(id),
    authorize: authorizer.start,
    pendingAuthorization: authorizer.pending,
    decide: authorizer.decide,
    token: tokens.token,
    revoke: tokens.revoke,
    verifyAccess: tokens.verifyAccess,
    /** For createApiAuth's extraResolvers: accepts access tokens issued for `resource` only. */
    bearerResolver:
      (resource: string): BearerResolver =>
      async (token) => {
        const check = await tokens.verifyAccess(token, resource);
        return check.ok ? check.actor : undefined;
      },

    async connectedApps(actor: Actor): Promise<ConnectedApp[]> {
      return (await repo.connectedApps(actor.userId)).map((r) => {
        const redirectHosts = [...new Set(redirectUrisOf(r.client).map((u) => new URL(u).host))];
        return {
          clientId: r.client.id,
          // Rows registered before control characters were refused are shown without them.
          name: safeClientText(r.client.name) || redirectHosts[0]!,
          redirectHosts,
          clientUri: r.client.clientUri,
          authorizedAt: r.firstAuthorizedAt,
          lastUsedAt: r.lastUsedAt,
        };
      });
    },

    /** A password change or "sign out everywhere": every grant and pending code of the user ends. */
    async revokeAllOf(userId: string, reason: "password_changed" | "signed_out_everywhere"): Promise<number> {
      return repo.revokeUserGrants(userId, iso(clock.now()), reason);
    },

    /** Settings → Connected apps: every grant of this user for the client ends at once. */
    async disconnect(actor: Actor, clientId: string): Promise<void> {
      const n = await repo.revokeUserClient(actor.userId, clientId, iso(clock.now()), "revoked_by_user");
      if (n === 0) throw notFound("Connected app");
    },
  };
}
export type OAuthService = ReturnType<typeof createOAuthService>;
