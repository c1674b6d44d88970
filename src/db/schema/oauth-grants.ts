// oauth_grants: one per consent; every token it issues belongs to it, so revoking it ends the family.
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { oauthClients } from "./oauth-clients.ts";
import { users } from "./users.ts";

export const oauthGrants = sqliteTable("oauth_grants", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  clientId: text("client_id")
    .notNull()
    .references(() => oauthClients.id, { onDelete: "cascade" }),
  scope: text("scope").notNull(),
  resource: text("resource").notNull(),
  createdAt: text("created_at").notNull(),
  lastUsedAt: text("last_used_at"),
  revokedAt: text("revoked_at"),
  revokedReason: text("revoked_reason"),
});
export type OAuthGrantRow = typeof oauthGrants.$inferSelect;
