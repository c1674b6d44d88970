// oauth_clients (PostgreSQL twin): MCP clients registered dynamically (RFC 7591); public clients.
import { index, pgTable, text } from "drizzle-orm/pg-core";

export const oauthClients = pgTable(
  "oauth_clients",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** JSON array of exact redirect URIs. */
    redirectUris: text("redirect_uris").notNull(),
    clientUri: text("client_uri"),
    softwareId: text("software_id"),
    softwareVersion: text("software_version"),
    scope: text("scope").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("oauth_clients_created").on(t.createdAt)],
);
