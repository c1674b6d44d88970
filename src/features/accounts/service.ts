// Users and web sessions: sign-up policy, argon2id passwords, timing-safe sign-in, hashed sessions.
import { AppError, invalid, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { Clock } from "../../time.ts";
import type { Config } from "../../config.ts";
import type { SessionRow, UserRow } from "../../db/schema/index.ts";
import { hashSecret } from "../../crypto.ts";
import type { ChangeWatch } from "../../db/change-watch.ts";
import type { Transactor } from "../../db/port.ts";
import type { AccountsRepo } from "./repo.ts";
import { canonicalEmail, checkEmailScripts } from "./email.ts";
import { normaliseStoredEmails } from "./email-migration.ts";
import type { Logger } from "../../log.ts";
import { parsePreferences, type Preferences, type PreferencesUpdate } from "./preferences.ts";

const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
const EMAIL_RE = /^[^\s@<>"(),;:]+@[^\s@<>"(),;:]+\.[^\s@<>"(),;:]+$|^[^\s@<>"(),;:]+@localhost$/;

export interface PublicUser {
  id: string;
  email: string;
  name: string;
  created_at: string;
}

export const toPublicUser = (u: UserRow): PublicUser => ({
  id: u.id,
  email: u.email,
  name: u.name,
  created_at: u.createdAt,
});

/** The password rules of sign-up, shared by changing a password. */
function checkPassword(path: string, password: string): void {
  if (password.length < 8) throw invalid(path, "must be at least 8 characters");
  if (password.length > 256) throw invalid(path, "must be at most 256 characters");
}

function randomToken(bytes = 32): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
}

export function createAccountsService(deps: {
  repo: AccountsRepo;
  clock: Clock;
  config: Config;
  db: Transactor;
  changes: ChangeWatch;
}) {
  const { repo, clock, config, db } = deps;
  // Users are read on every authenticated request; the cache drops itself when another
  // connection (the CLI setting a plan) commits, and this service's own writes evict entries.
  const users = new Map<string, UserRow>();
  let usersGeneration = deps.changes.generation();
  // Moves when a user changes (here or, on PostgreSQL, in another process): a read that was out
  // meanwhile may hold the old row and must not be cached.
  let userChanges = 0;
  deps.changes.onChange((c) => {
    if (c && c.topic !== "user") return;
    userChanges++;
    if (c) users.delete(c.id);
    else users.clear();
  });
  async function cachedUser(id: string): Promise<UserRow | undefined> {
    const g = deps.changes.generation();
    if (g !== usersGeneration) {
      usersGeneration = g;
      users.clear();
    }
    let u = users.get(id);
    if (!u) {
      const seen = userChanges;
      u = await repo.userById(id);
      if (u && seen === userChanges) users.set(id, u);
    }
    return u;
  }
  /** Evicts the user here once the change commits, and in every other process at that commit. */
  async function userChanged(id: string): Promise<void> {
    await deps.changes.announce("user", id);
    db.afterCommit(() => {
      userChanges++;
      users.delete(id);
    });
  }
  // Verifying against this when the email is unknown makes both paths cost one argon2id check.
  let dummyHash: Promise<string> | undefined;
  const dummy = () => (dummyHash ??= Bun.password.hash(`dummy-${randomToken()}`, { algorithm: "argon2id" }));
  const nowIso = () => new Date(clock.now()).toISOString();

  return {
    /** Computes the dummy hash ahead of time so the first unknown-email sign-in is not slower. */
    warmUp: () => dummy().then(() => undefined),

    async createUser(
      input: { email: string; password: string; name?: string },
      opts: { bypassSignupPolicy?: boolean } = {},
    ): Promise<UserRow> {
      const email = canonicalEmail(input.email);
      if (!EMAIL_RE.test(email) || email.length > 254) throw invalid("email", "must be an email address");
      checkEmailScripts(email);
      checkPassword("password", input.password);
      const name = (input.name ?? "").trim() || email.split("@")[0]!;
      if (name.length > 100) throw invalid("name", "must be at most 100 characters");
      const closed = !opts.bypassSignupPolicy && !config.allowSignup;
      const signupClosed = () =>
        new AppError("signup_closed", "Sign-up is closed on this server; ask its administrator for an account");
      if (closed && (await repo.countUsers()) > 0) throw signupClosed();
      const passwordHash = await Bun.password.hash(input.password, { algorithm: "argon2id" });
      if (await repo.userByEmail(email)) throw new AppError("conflict", "An account with this email already exists");
      const at = nowIso();
      const row: UserRow = {
        id: newId("user"),
        email,
        name,
        passwordHash,
        preferences: "{}",
        planId: config.credits.defaultPlanId,
        createdAt: at,
        updatedAt: at,
      };
      try {
        // Checked again with the insert: another first sign-up may have got in during the hashing.
        if (!(await repo.insertUser(row, { onlyFirst: closed }))) throw signupClosed();
      } catch (e) {
        if (String(e).includes("UNIQUE")) throw new AppError("conflict", "An account with this email already exists");
        throw e;
      }
      return row;
    },

    /** Start-up step after the SQL migrations: stored emails to canonical form, collisions reported. */
    normaliseStoredEmails(logger: Logger) {
      const setEmail = (id: string, email: string) =>
        db.tx(async () => {
          await repo.setEmail(id, email, nowIso());
          await userChanged(id);
        });
      return normaliseStoredEmails({ repo, setEmail, logger });
    },

    async signupOpen(): Promise<boolean> {
      return config.allowSignup || (await repo.countUsers()) === 0;
    },

    async verifyPassword(email: string, password: string): Promise<UserRow> {
      const user = await repo.userByEmail(canonicalEmail(email));
      const ok = await Bun.password.verify(password, user ? user.passwordHash : await dummy());
      if (!user || !ok) throw new AppError("invalid_credentials", "Email or password is wrong");
      return user;
    },

    async userById(id: string): Promise<UserRow> {
      const u = await cachedUser(id);
      if (!u) throw notFound("User");
      return u;
    },

    async userByEmail(email: string): Promise<UserRow> {
      const u = await repo.userByEmail(canonicalEmail(email));
      if (!u) throw notFound(`User ${email}`);
      return u;
    },

    /** How the user reads: every known preference, the defaults filling what was never set. */
    async preferences(userId: string): Promise<Preferences> {
      const u = await cachedUser(userId);
      if (!u) throw notFound("User");
      return parsePreferences(u.preferences);
    },

    /** Changes the given preferences, keeping the others. */
    async updatePreferences(userId: string, patch: PreferencesUpdate): Promise<Preferences> {
      return db.tx(async () => {
        const u = await repo.userById(userId);
        if (!u) throw notFound("User");
        const next = { ...parsePreferences(u.preferences), ...patch };
        await repo.setPreferences(userId, JSON.stringify(next), nowIso());
        await userChanged(userId);
        return next;
      });
    },

    async setPlan(userId: string, planId: string): Promise<void> {
      if (!config.credits.plans.some((p) => p.id === planId)) {
        const known = config.credits.plans.map((p) => p.id).join(", ");
        throw invalid(
          "plan",
          `unknown plan "${planId}"; known: ${known} (plans are defined by the PLANS setting, shared by the server and the CLI)`,
        );
      }
      await db.tx(async () => {
        await repo.setPlan(userId, planId, nowIso());
        await userChanged(userId);
      });
    },

    /**
     * Replaces the password after checking the current one, and ends every other session of the
     * user (a stolen session stops working); `keepSessionId` stays signed in. `alsoRevoke` runs in the
     * same transaction (the caller ends OAuth grants and keys there). Returns how many sessions ended.
     */
    async changePassword(
      userId: string,
      input: { current: string; next: string },
      keepSessionId: string,
      alsoRevoke?: () => Promise<unknown>,
    ): Promise<number> {
      const user = await repo.userById(userId);
      if (!user) throw notFound("User");
      if (!input.current) throw invalid("current_password", "Enter your current password");
      checkPassword("new_password", input.next);
      if (!(await Bun.password.verify(input.current, user.passwordHash))) throw invalid("current_password", "is wrong");
      if (input.next === input.current) throw invalid("new_password", "must differ from the current password");
      const hash = await Bun.password.hash(input.next, { algorithm: "argon2id" });
      return db.tx(async () => {
        await repo.setPassword(userId, hash, nowIso());
        await userChanged(userId);
        await alsoRevoke?.();
        return repo.deleteOtherSessions(userId, keepSessionId);
      });
    },

    /** Ends every web session of the user, the current one too; returns how many ended. */
    async endAllSessions(userId: string): Promise<number> {
      return repo.deleteUserSessions(userId);
    },

    async createSession(userId: string): Promise<{ token: string; session: SessionRow }> {
      const token = randomToken();
      const now = clock.now();
      const session: SessionRow = {
        id: newId("session"),
        userId,
        tokenHash: hashSecret(token),
        csrfToken: randomToken(24),
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + SESSION_TTL_MS).toISOString(),
      };
      await repo.insertSession(session);
      return { token, session };
    },

    async sessionFromToken(token: string | undefined): Promise<SessionRow | undefined> {
      if (!token || token.length > 200) return undefined;
      return repo.sessionByHash(hashSecret(token), nowIso());
    },

    async endSession(id: string): Promise<void> {
      await repo.deleteSession(id);
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
