// Bearer authentication for /api/v1 plus the per-user rate limit; sets the request's actor.
import { bearerToken } from "./bearer.ts";
import { AppError } from "../errors.ts";
import type { Actor } from "../actor.ts";
import type { KeysService } from "../features/keys/service.ts";
import { metaOf } from "./context.ts";
import { checkRate, type RateLimiter } from "./rate-limiter.ts";

const REALM = 'Bearer realm="commonplace"';

export type BearerResolver = (token: string, request: Request) => Actor | undefined | Promise<Actor | undefined>;

export function unauthorized(detail: string, wwwAuthenticate: string): AppError {
  return new AppError("unauthorized", detail, { headers: { "www-authenticate": wwwAuthenticate } });
}

/**
 * Authenticates a /api/v1 request and counts it against the user's rate limit: sets the request's
 * actor and returns the RateLimit headers for the response, or throws a 401/429 AppError. It runs
 * in the outer request layer rather than as an Elysia hook, which keeps cached requests cheap.
 */
export function createApiAuth(deps: { keys: KeysService; limiter: RateLimiter; extraResolvers?: BearerResolver[] }) {
  const { keys, limiter } = deps;
  return async (request: Request): Promise<Record<string, string>> => {
    const bearer = bearerToken(request);
    if ("problem" in bearer) {
      if (bearer.problem === "missing") throw unauthorized("Send your API key as `Authorization: Bearer cpk_…`", REALM);
      throw unauthorized("The Authorization header must be `Bearer <key>`", `${REALM}, error="invalid_request"`);
    }
    const { token } = bearer;
    let actor: Actor | undefined;
    if (token.startsWith("cpk_")) {
      try {
        actor = await keys.authenticate(token);
      } catch (e) {
        if (e instanceof AppError) throw unauthorized(e.detail ?? "Invalid API key", `${REALM}, error="invalid_token"`);
        throw e;
      }
    } else {
      for (const resolve of deps.extraResolvers ?? []) {
        actor = await resolve(token, request);
        if (actor) break;
      }
      if (!actor)
        throw unauthorized("The bearer token is not a valid Commonplace key", `${REALM}, error="invalid_token"`);
    }
    metaOf(request).actor = actor;
    const rate = await checkRate(limiter, actor.userId);
    if (!rate.allowed) {
      const d = rate.decision;
      throw new AppError(
        "rate_limited",
        `Rate limit of ${d.limit} requests per ${limiter.windowSeconds} s reached; retry in ${d.resetSeconds} s`,
        { headers: rate.headers },
      );
    }
    return rate.headers;
  };
}
export type ApiAuth = ReturnType<typeof createApiAuth>;

/** The authenticated actor of a request under /api/v1 (set by createApiAuth). */
export function actorOf(request: Request): Actor {
  const actor = metaOf(request).actor;
  if (!actor) throw new AppError("unauthorized", "Not authenticated");
  return actor;
}
