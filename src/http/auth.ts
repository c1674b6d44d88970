// Bearer authentication for /api/v1 plus the per-user rate limit; sets the request's actor.
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import type { Actor } from "../features/accounts/actor.ts";
import type { KeysService } from "../features/keys/service.ts";
import { metaOf } from "./context.ts";
import { applyRateLimitHeaders, type RateLimiter } from "./rate-limiter.ts";

const REALM = 'Bearer realm="commonplace"';

export type BearerResolver = (token: string, request: Request) => Actor | undefined;

export function unauthorized(detail: string, wwwAuthenticate: string): AppError {
  return new AppError("unauthorized", detail, { headers: { "www-authenticate": wwwAuthenticate } });
}

export function authPlugin(deps: { keys: KeysService; limiter: RateLimiter; extraResolvers?: BearerResolver[] }) {
  const { keys, limiter } = deps;
  return new Elysia({ name: "auth" }).onTransform({ as: "scoped" }, ({ request, set }) => {
    const header = request.headers.get("authorization");
    if (!header) {
      throw unauthorized("Send your API key as `Authorization: Bearer cpk_…`", REALM);
    }
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw unauthorized("The Authorization header must be `Bearer <key>`", `${REALM}, error="invalid_request"`);
    const token = m[1]!;
    let actor: Actor | undefined;
    if (token.startsWith("cpk_")) {
      try {
        actor = keys.authenticate(token);
      } catch (e) {
        if (e instanceof AppError) throw unauthorized(e.detail ?? "Invalid API key", `${REALM}, error="invalid_token"`);
        throw e;
      }
    } else {
      for (const resolve of deps.extraResolvers ?? []) {
        actor = resolve(token, request);
        if (actor) break;
      }
      if (!actor) throw unauthorized("The bearer token is not a valid Commonplace key", `${REALM}, error="invalid_token"`);
    }
    metaOf(request).actor = actor;
    const d = limiter.hit(actor.userId);
    applyRateLimitHeaders(set.headers, d, limiter.windowSeconds);
    if (!d.allowed) {
      throw new AppError("rate_limited", `Rate limit of ${d.limit} requests per ${limiter.windowSeconds} s reached; retry in ${d.resetSeconds} s`, {
        headers: { "retry-after": String(d.resetSeconds) },
      });
    }
  });
}

/** The authenticated actor of a request under /api/v1 (set by authPlugin). */
export function actorOf(request: Request): Actor {
  const actor = metaOf(request).actor;
  if (!actor) throw new AppError("unauthorized", "Not authenticated");
  return actor;
}
