// The token endpoint's grants (authorization_code, refresh_token with rotation), revocation
// (RFC 7009) and verification of access tokens for a resource.
import type { Transactor } from "../../db/port.ts";
import type { OAuthClientRow, OAuthGrantRow } from "../../db/schema/index.ts";
import { newId } from "../../ids.ts";
import { iso, type Clock } from "../../time.ts";
import type { Actor } from "../../actor.ts";
import { OAuthError } from "./errors.ts";
import type { OAuthRepo } from "./repo.ts";
import { ACCESS_PREFIX, hashToken, newSecret, pkceMatches, REFRESH_PREFIX } from "./secrets.ts";

export const ACCESS_TTL_MS = 3600_000;
export const REFRESH_TTL_MS = 30 * 24 * 3600_000;
const TOUCH_INTERVAL_MS = 60_000;

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export type AccessCheck = { ok: true; actor: Actor; grant: OAuthGrantRow } | { ok: false; reason: string };

/** One value per parameter (RFC 6749 §3.2: parameters must not be repeated). */
function param(p: URLSearchParams, name: string, required: true): string;
function param(p: URLSearchParams, name: string, required?: false): string | undefined;
function param(p: URLSearchParams, name: string, required = false): string | undefined {
  const all = p.getAll(name);
  if (all.length > 1) throw new OAuthError("invalid_request", `${name} must not be repeated`);
  const v = all[0];
  if (required && !v) throw new OAuthError("invalid_request", `${name} is required`);
  return v || undefined;
}

export function createTokenIssuer(deps: { repo: OAuthRepo; db: Transactor; clock: Clock }) {
  const { repo, db, clock } = deps;
  const touched = new Map<string, number>();

  async function client(p: URLSearchParams): Promise<OAuthClientRow> {
    const id = param(p, "client_id");
    if (!id)
      throw new OAuthError("invalid_client", "client_id is required (public clients identify themselves with it)");
    const row = await repo.clientById(id);
    if (!row) throw new OAuthError("invalid_client", "Unknown client_id; register again");
    return row;
  }

  async function issue(grant: OAuthGrantRow, now: number): Promise<TokenResponse> {
    const access = newSecret(ACCESS_PREFIX);
    const refresh = newSecret(REFRESH_PREFIX);
    const base = { grantId: grant.id, createdAt: iso(now), rotatedAt: null, revokedAt: null };
    await repo.insertTokens([
      { ...base, tokenHash: hashToken(access), kind: "access", expiresAt: iso(now + ACCESS_TTL_MS) },
      { ...base, tokenHash: hashToken(refresh), kind: "refresh", expiresAt: iso(now + REFRESH_TTL_MS) },
    ]);
    return {
      access_token: access,
      token_type: "Bearer",
      expires_in: ACCESS_TTL_MS / 1000,
      refresh_token: refresh,
      scope: grant.scope,
    };
  }

  function checkResource(p: URLSearchParams, bound: string): void {
    const resource = param(p, "resource");
    if (resource !== undefined && resource !== bound)
      throw new OAuthError("invalid_target", `This grant is for ${bound}, not ${resource}`);
  }

  async function authorizationCode(p: URLSearchParams): Promise<TokenResponse> {
    const c = await client(p);
    const code = param(p, "code", true);
    const redirectUri = param(p, "redirect_uri", true);
    const verifier = param(p, "code_verifier", true);
    const hash = hashToken(code);
    const row = await repo.codeByHash(hash);
    if (!row) throw new OAuthError("invalid_grant", "The authorization code is unknown or expired");
    const now = clock.now();
    if (row.usedAt) {
      // A code seen twice may have been stolen: whatever its first use issued is revoked.
      if (row.grantId) await repo.revokeGrant(row.grantId, iso(now), "code_reuse");
      throw new OAuthError(
        "invalid_grant",
        "The authorization code was already used; the tokens it issued are revoked",
      );
    }
    if (row.clientId !== c.id)
      throw new OAuthError("invalid_grant", "The authorization code was issued to another client");
    if (row.expiresAt <= iso(now)) throw new OAuthError("invalid_grant", "The authorization code expired");
    if (row.redirectUri !== redirectUri)
      throw new OAuthError("invalid_grant", "redirect_uri does not match the one of the authorization request");
    if (!pkceMatches(verifier, row.codeChallenge))
      throw new OAuthError("invalid_grant", "code_verifier does not match the code_challenge");
    checkResource(p, row.resource);
    // Losing the code to a concurrent exchange rolls the new grant back (the sentinel), then revokes.
    const lost = new Error("code already used");
    const issued = await db
      .tx(async () => {
        const grant: OAuthGrantRow = {
          id: newId("oauthGrant"),
          userId: row.userId,
          clientId: c.id,
          scope: row.scope,
          resource: row.resource,
          createdAt: iso(now),
          lastUsedAt: null,
          revokedAt: null,
          revokedReason: null,
        };
        await repo.insertGrant(grant);
        if (!(await repo.useCode(hash, iso(now), grant.id))) throw lost; // another exchange won the code
        return issue(grant, now);
      })
      .catch((err: unknown) => {
        if (err === lost) return null;
        throw err;
      });
    if (issued) return issued;
    // Two exchanges of one code at once: the loser's rolled back, and, as for a code seen twice in a
    // row, what the winner issued is revoked (the code may have been stolen).
    const won = await repo.codeByHash(hash);
    if (won?.grantId) await repo.revokeGrant(won.grantId, iso(now), "code_reuse");
    throw new OAuthError("invalid_grant", "The authorization code was already used; the tokens it issued are revoked");
  }

  async function refreshToken(p: URLSearchParams): Promise<TokenResponse> {
    const c = await client(p);
    const token = param(p, "refresh_token", true);
    const hash = hashToken(token);
    const hit = await repo.tokenByHash(hash);
    if (hit?.token.kind !== "refresh") throw new OAuthError("invalid_grant", "The refresh token is unknown or expired");
    const { grant } = hit;
    const now = clock.now();
    if (grant.clientId !== c.id)
      throw new OAuthError("invalid_grant", "The refresh token was issued to another client");
    if (grant.revokedAt || hit.token.revokedAt) throw new OAuthError("invalid_grant", "The refresh token was revoked");
    if (hit.token.rotatedAt) {
      // Reuse of a rotated token means two parties hold the family: end it for both.
      await repo.revokeGrant(grant.id, iso(now), "refresh_reuse");
      throw new OAuthError("invalid_grant", "The refresh token was already used; this authorization is revoked");
    }
    if (hit.token.expiresAt <= iso(now)) throw new OAuthError("invalid_grant", "The refresh token expired");
    checkResource(p, grant.resource);
    const scope = param(p, "scope");
    if (scope?.split(" ").some((s) => s && !grant.scope.split(" ").includes(s))) {
      throw new OAuthError("invalid_scope", `The grant covers only "${grant.scope}"`);
    }
    const issued = await db.tx(async () => {
      if (!(await repo.rotateToken(hash, iso(now)))) return null; // another refresh rotated it first
      await repo.deleteExpiredTokens(grant.id, iso(now));
      return issue(grant, now);
    });
    if (issued) return issued;
    // Two refreshes with one token at once: two parties hold the family, as with a rotated token reused.
    await repo.revokeGrant(grant.id, iso(now), "refresh_reuse");
    throw new OAuthError("invalid_grant", "The refresh token was already used; this authorization is revoked");
  }

  return {
    /** POST /oauth/token with a parsed form body. */
    async token(p: URLSearchParams): Promise<TokenResponse> {
      const type = param(p, "grant_type", true);
      if (type === "authorization_code") return authorizationCode(p);
      if (type === "refresh_token") return refreshToken(p);
      throw new OAuthError(
        "unsupported_grant_type",
        `grant_type ${type} is not supported (use authorization_code or refresh_token)`,
      );
    },

    /** RFC 7009: unknown tokens and other clients' tokens are ignored, so the answer says nothing. */
    async revoke(p: URLSearchParams): Promise<void> {
      const c = await client(p);
      const token = param(p, "token", true);
      const hit = await repo.tokenByHash(hashToken(token));
      if (!hit || hit.grant.clientId !== c.id) return;
      const at = iso(clock.now());
      // A refresh token stands for the whole authorization; an access token only for itself.
      if (hit.token.kind === "refresh") await repo.revokeGrant(hit.grant.id, at, "revoked_by_client");
      else await repo.revokeToken(hit.token.tokenHash, at);
    },

    /** Is this an unexpired, unrevoked access token issued for `resource`? */
    async verifyAccess(token: string, resource: string): Promise<AccessCheck> {
      if (!token.startsWith(ACCESS_PREFIX))
        return { ok: false, reason: "The bearer token is not an access token issued by this server" };
      const hit = await repo.tokenByHash(hashToken(token));
      if (hit?.token.kind !== "access") return { ok: false, reason: "The access token is unknown" };
      const { grant } = hit;
      const now = clock.now();
      if (hit.token.revokedAt || grant.revokedAt) return { ok: false, reason: "The access token was revoked" };
      if (hit.token.expiresAt <= iso(now)) return { ok: false, reason: "The access token expired" };
      if (grant.resource !== resource)
        return { ok: false, reason: `The access token was issued for ${grant.resource}, not ${resource}` };
      if (now - (touched.get(grant.id) ?? 0) >= TOUCH_INTERVAL_MS) {
        touched.set(grant.id, now);
        await repo.touchGrant(grant.id, iso(now));
      }
      return {
        ok: true,
        grant,
        actor: { userId: grant.userId, auth: { type: "oauth", client_id: grant.clientId, grant_id: grant.id } },
      };
    },
  };
}
export type TokenIssuer = ReturnType<typeof createTokenIssuer>;
