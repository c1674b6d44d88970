// oauth_codes: single-use authorization codes (hashed), bound to client, redirect URI, PKCE and resource.
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { oauthClients } from "./oauth-clients.ts";
import { oauthGrants } from "./oauth-grants.ts";
import { users } from "./users.ts";

export const oauthCodes = sqliteTable("oauth_codes", {
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
  /** The grant its redemption created: revoked if the code is presented again. */
  grantId: text("grant_id").references(() => oauthGrants.id, { onDelete: "cascade" }),
});
export type OAuthCodeRow = typeof oauthCodes.$inferSelect;
