// The web app's logic without HTTP: sign-up and sign-in (rate limited), sessions, and API keys
// created at most once per submitted form.
import type { Config } from "../config.ts";
import type { SessionRow, UserRow, ApiKeyRow } from "../db/schema/index.ts";
import { AppError, type FieldError } from "../errors.ts";
import { isId } from "../ids.ts";
import type { Db } from "../db/port.ts";
import type { RateLimiter, RateLimiters } from "../http/rate-limiter.ts";
import type { Clock } from "../time.ts";
import type { Actor } from "../actor.ts";
import type { AccountsService } from "../features/accounts/service.ts";
import type { KeysService } from "../features/keys/service.ts";
import type { OAuthService } from "../features/oauth/service.ts";
import type { KeyPublic } from "../features/keys/schema.ts";
import { encodeCursor, type Page } from "../paging.ts";
import type { FormGuards } from "./form-guard.ts";
import { canonicalEmail } from "../features/accounts/email.ts";

const KEYS_PAGE = 50;
const FORM_TTL_MS = 24 * 3600 * 1000;
const FORM_ID_RE = /^[A-Za-z0-9_-]{16,64}$/;
// Several people may share one address (a household, an office, a reverse proxy).
const ADDRESS_FACTOR = 5;

export interface SignedIn {
  session: SessionRow;
  user: UserRow;
  actor: Actor;
  /** The path of the request it was read for: the navigation marks its section. */
  path?: string;
}

export interface NewSession {
  token: string;
  session: SessionRow;
}

function fieldErrors(errors: FieldError[]): AppError {
  return new AppError("validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
}

async function hitOrThrow(limiter: RateLimiter, key: string, what = "sign-in attempts"): Promise<void> {
  const d = await limiter.hit(key);
  if (d.allowed) return;
  throw new AppError("rate_limited", `Too many ${what}. Try again in ${d.resetSeconds} seconds.`, {
    headers: { "retry-after": String(d.resetSeconds) },
  });
}

export function createWebService(deps: {
  accounts: AccountsService;
  keys: KeysService;
  oauth: OAuthService;
  config: Config;
  clock: Clock;
  db: Db;
  /** Sign-in limits and form guards every process shares (memory with one process, tables on PostgreSQL). */
  rateLimiters: RateLimiters;
  formGuards: FormGuards;
}) {
  const { accounts, keys, oauth, config, clock, db } = deps;
  const now = () => clock.now();
  const perEmail = deps.rateLimiters({
    name: "login-email",
    limit: config.rateLimit.loginPerMinute,
    windowMs: 60_000,
    now,
  });
  const perAddress = deps.rateLimiters({
    name: "login-address",
    limit: config.rateLimit.loginPerMinute * ADDRESS_FACTOR,
    windowMs: 60_000,
    now,
  });
  // Form ids of key-creation forms already answered: a resubmitted form must not mint a second key.
  const keyForms = deps.formGuards("key");

  return {
    signupOpen: async (): Promise<boolean> => accounts.signupOpen(),

    /**
     * Counts against the sign-in limits (per address and per email) before the password is hashed:
     * argon2 is as costly here as there, and an existing email must not be probed faster either.
     */
    async signUp(
      input: { email: string; password: string; name: string },
      address: string | undefined,
    ): Promise<NewSession> {
      const email = input.email.trim().toLowerCase();
      if (address) await hitOrThrow(perAddress, `addr:${address}`, "attempts");
      if (email) await hitOrThrow(perEmail, `email:${email}`, "attempts");
      const user = await accounts.createUser(input);
      return accounts.createSession(user.id);
    },

    /** Every attempt counts against the email and the client address before any password work. */
    async signIn(input: { email: string; password: string }, address: string | undefined): Promise<NewSession> {
      const email = input.email.trim();
      const missing: FieldError[] = [];
      if (!email) missing.push({ path: "email", message: "Enter your email address" });
      if (!input.password) missing.push({ path: "password", message: "Enter your password" });
      if (missing.length) throw fieldErrors(missing);
      // Look-alike spellings of one address share its limit.
      const canonical = canonicalEmail(email);
      if (address) await hitOrThrow(perAddress, `addr:${address}`);
      await hitOrThrow(perEmail, `email:${canonical}`);
      const user = await accounts.verifyPassword(email, input.password);
      return accounts.createSession(user.id);
    },

    /**
     * Counts against the same per-email limit as signing in: a stolen session cannot guess the password
     * fast. With the password, whatever was signed in with the old one ends: other sessions, every OAuth
     * grant and its tokens, and (when `revokeKeys`) every API key.
     */
    async changePassword(
      me: SignedIn,
      input: { current: string; next: string },
      opts: { revokeKeys: boolean },
    ): Promise<number> {
      await hitOrThrow(
        perEmail,
        `email:${canonicalEmail(me.user.email, "email", { stripInvisible: true })}`,
        "password attempts",
      );
      return accounts.changePassword(me.user.id, input, me.session.id, async () => {
        await oauth.revokeAllOf(me.user.id, "password_changed");
        if (opts.revokeKeys) await keys.revokeAllOf(me.user.id);
      });
    },

    async current(token: string | undefined): Promise<SignedIn | undefined> {
      const session = await accounts.sessionFromToken(token);
      if (!session) return undefined;
      let user: UserRow;
      try {
        user = await accounts.userById(session.userId);
      } catch {
        return undefined;
      }
      return { session, user, actor: { userId: user.id, auth: { type: "session", session_id: session.id } } };
    },

    async signOut(sessionId: string): Promise<void> {
      await accounts.endSession(sessionId);
    },

    /** Every web session of the user ends, this one too, and every OAuth grant; API keys stay. */
    async signOutEverywhere(me: SignedIn): Promise<void> {
      await db.tx(async () => {
        await oauth.revokeAllOf(me.user.id, "signed_out_everywhere");
        await accounts.endAllSessions(me.user.id);
      });
    },

    /** One page of keys; `before` is the raw key id of the page's "Older keys" link. */
    listKeys(actor: Actor, before: string | undefined): Promise<Page<KeyPublic>> {
      return keys.list(actor, {
        limit: KEYS_PAGE,
        cursor: before && isId("key", before) ? encodeCursor(before) : undefined,
      });
    },

    /** Returns the new key (to show once) or "already_used" when this form was answered before. */
    async createKey(
      actor: Actor,
      name: string,
      formId: string,
    ): Promise<{ key: string; row: ApiKeyRow } | "already_used"> {
      const trimmed = name.trim();
      if (!trimmed)
        throw fieldErrors([{ path: "name", message: "Give the key a name, such as the script that will use it" }]);
      if (trimmed.length > 100) throw fieldErrors([{ path: "name", message: "Use at most 100 characters" }]);
      const tracked = FORM_ID_RE.test(formId);
      // Claimed before the key is written: a second submission arriving meanwhile must see the claim.
      if (tracked && !(await keyForms.claim(actor.userId, formId, now() + FORM_TTL_MS, now()))) return "already_used";
      try {
        return await keys.create(actor.userId, trimmed);
      } catch (e) {
        if (tracked) await keyForms.release(actor.userId, formId); // nothing was made: the form may be sent again
        throw e;
      }
    },

    async revokeKey(actor: Actor, id: string): Promise<ApiKeyRow> {
      return keys.revoke(actor, id);
    },
  };
}
export type WebService = ReturnType<typeof createWebService>;
