// Credits: a monthly allowance per plan, periods anchored on the sign-up day, atomic spending.
import type { Config, Plan } from "../../config.ts";
import type { Transactor } from "../../db/port.ts";
import { AppError } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { Clock } from "../../time.ts";
import type { AccountsRepo } from "../accounts/repo.ts";
import type { CreditsRepo } from "./repo.ts";

export interface Balance {
  allowance: number;
  used: number;
  remaining: number;
  period_start: string;
  period_end: string;
}

export interface Spend {
  id: string;
  amount: number;
  /** "ask" or "podcast". */
  reason: string;
  /** The podcast id for podcasts. */
  ref: string | null;
  created_at: string;
}

/** Adds months to an anchor, clamping to the month's last day (Jan 31 + 1 month = Feb 28/29). */
function addMonths(anchor: Date, months: number): Date {
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(anchor.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(
      y,
      m,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

export function periodFor(anchorIso: string, nowMs: number): { start: Date; end: Date } {
  const anchor = new Date(anchorIso);
  const now = new Date(nowMs);
  let k = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  if (addMonths(anchor, k) > now) k -= 1;
  if (k < 0) k = 0;
  return { start: addMonths(anchor, k), end: addMonths(anchor, k + 1) };
}

/**
 * Runs fn after every earlier call with the same key has settled. A user's spends conflict with each other
 * (each reads the period's sum, then adds to it): queued in this process they run one after another
 * instead of failing and retrying their SERIALIZABLE transactions on PostgreSQL; processes still race, and
 * the transaction (its retry on PostgreSQL, the single writer on SQLite) keeps that exact.
 */
function queuePerKey() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const prev = tails.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => {});
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

export function createCreditsService(deps: {
  repo: CreditsRepo;
  accounts: AccountsRepo;
  db: Transactor;
  clock: Clock;
  config: Config;
}) {
  const { repo, accounts, db, clock, config } = deps;
  const oneAtATime = queuePerKey();

  function planOf(planId: string): Plan {
    return (
      config.credits.plans.find((p) => p.id === planId) ??
      config.credits.plans.find((p) => p.id === config.credits.defaultPlanId)!
    );
  }

  async function balance(userId: string): Promise<Balance & { plan: Plan }> {
    const user = await accounts.userById(userId);
    if (!user) throw new AppError("not_found", "User not found");
    const plan = planOf(user.planId);
    const { start, end } = periodFor(user.createdAt, clock.now());
    const used = await repo.usedBetween(userId, start.toISOString(), end.toISOString());
    return {
      plan,
      allowance: plan.monthly_credits,
      used,
      remaining: Math.max(0, plan.monthly_credits - used),
      period_start: start.toISOString(),
      period_end: end.toISOString(),
    };
  }

  return {
    balance,

    /** The latest spends: what (reason, and the podcast id for podcasts), when, how many credits. */
    async recentSpends(userId: string, limit: number): Promise<Spend[]> {
      return (await repo.recent(userId, limit)).map((r) => ({
        id: r.id,
        amount: r.amount,
        reason: r.reason,
        ref: r.ref,
        created_at: r.createdAt,
      }));
    },

    /** Throws 402 insufficient_credit when short; the check and the ledger row are one transaction. */
    async spend(userId: string, amount: number, reason: string, ref?: string): Promise<Balance> {
      if (!Number.isInteger(amount) || amount < 0) throw new Error(`invalid credit amount ${amount}`);
      return oneAtATime(userId, () =>
        db.tx(async () => {
          const b = await balance(userId);
          if (b.remaining < amount) {
            throw new AppError(
              "insufficient_credit",
              `This needs ${amount} credit${amount === 1 ? "" : "s"} and ${b.remaining} remain until ${b.period_end}`,
            );
          }
          if (amount > 0) {
            await repo.insert({
              id: newId("ledger"),
              userId,
              amount,
              reason,
              ref: ref ?? null,
              createdAt: new Date(clock.now()).toISOString(),
            });
          }
          const { plan: _plan, ...rest } = b;
          return { ...rest, used: b.used + amount, remaining: b.remaining - amount };
        }),
      );
    },

    /** Throws 402 without charging when the balance cannot cover `amount`. */
    async ensure(userId: string, amount: number): Promise<void> {
      const b = await balance(userId);
      if (b.remaining < amount) {
        throw new AppError(
          "insufficient_credit",
          `This needs ${amount} credits and ${b.remaining} remain until ${b.period_end}`,
        );
      }
    },
  };
}
export type CreditsService = ReturnType<typeof createCreditsService>;
