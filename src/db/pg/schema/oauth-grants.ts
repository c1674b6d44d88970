// oauth_grants (PostgreSQL twin): one per consent; revoking it ends the token family.
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { oauthClients } from "./oauth-clients.ts";
import { users } from "./users.ts";

export const oauthGrants = pgTable(
  "oauth_grants",
  {
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
  },
  (t) => [index("oauth_grants_user").on(t.userId, t.clientId), index("oauth_grants_client").on(t.clientId)],
);
