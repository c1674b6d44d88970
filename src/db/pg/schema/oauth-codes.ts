// oauth_codes (PostgreSQL twin): single-use authorization codes (hashed).
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { oauthClients } from "./oauth-clients.ts";
import { oauthGrants } from "./oauth-grants.ts";
import { users } from "./users.ts";

export const oauthCodes = pgTable(
  "oauth_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    scope: text("scope").notNull(),
    resource: text("resource").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    grantId: text("grant_id").references(() => oauthGrants.id, { onDelete: "cascade" }),
  },
  (t) => [index("oauth_codes_expires").on(t.expiresAt), index("oauth_codes_client").on(t.clientId)],
);
