// oauth_clients: MCP clients registered dynamically (RFC 7591); public clients, no secrets.
import { sqliteTable, text } from "drizzle-orm/sqlite-core";

export const oauthClients = sqliteTable("oauth_clients", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** JSON array of exact redirect URIs. */
  redirectUris: text("redirect_uris").notNull(),
  clientUri: text("client_uri"),
  softwareId: text("software_id"),
  softwareVersion: text("software_version"),
  scope: text("scope").notNull(),
  createdAt: text("created_at").notNull(),
});
export type OAuthClientRow = typeof oauthClients.$inferSelect;
