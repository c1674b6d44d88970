// GET /api/v1/me and GET /api/v1/account.
import { Elysia } from "elysia";
import { actorOf } from "../../http/auth.ts";
import type { CreditsService } from "../credits/service.ts";
import type { AccountsService } from "./service.ts";
import { AccountPublic, MePublic } from "./schema.ts";
import { toPublicUser } from "./service.ts";
import { PreferencesPublic, PreferencesUpdate } from "./preferences.ts";

export function accountRoutes(s: { accounts: AccountsService; credits: CreditsService }) {
  return (
    new Elysia({ tags: ["Account"] })
      // GET /api/v1/me
      .get(
        "/me",
        async ({ request }) => {
          const actor = actorOf(request);
          const { type, ...rest } = actor.auth as { type: string } & Record<string, string>;
          const auth = type === "oauth" ? { type, client_id: rest.client_id } : { type, ...rest };
          return { ...toPublicUser(await s.accounts.userById(actor.userId)), auth };
        },
        {
          response: MePublic,
          detail: {
            operationId: "getMe",
            summary: "The caller and how they authenticated",
            description:
              "The user the credential acts for, and how it authenticated: `api_key` with the key's id and name, or `oauth` with the client id.",
          },
        },
      )
      // GET /api/v1/me/preferences
      .get("/me/preferences", ({ request }) => s.accounts.preferences(actorOf(request).userId), {
        response: PreferencesPublic,
        detail: {
          operationId: "getPreferences",
          summary: "How the user reads",
          description:
            "The library's view and the reader's typography, kept per user so every browser opens the same way; values never set are the defaults.",
        },
      })
      // PATCH /api/v1/me/preferences
      .patch("/me/preferences", ({ request, body }) => s.accounts.updatePreferences(actorOf(request).userId, body), {
        body: PreferencesUpdate,
        response: PreferencesPublic,
        detail: {
          operationId: "updatePreferences",
          summary: "Change how the user reads",
          description: "Sets the given preferences and keeps the others; answers with all of them.",
        },
      })
      // GET /api/v1/account
      .get(
        "/account",
        async ({ request }) => {
          const { plan, ...credits } = await s.credits.balance(actorOf(request).userId);
          return { plan, credits };
        },
        {
          response: AccountPublic,
          detail: {
            operationId: "getAccount",
            summary: "Plan and credit balance for the current period",
            description:
              "The plan and the credit balance of the current period; AI operations (ask, podcasts) spend credits and report their cost.",
          },
        },
      )
  );
}
