// oauth_tokens: opaque access and refresh tokens, stored as SHA-256 hashes, each in one grant.
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { oauthGrants } from "./oauth-grants.ts";

export const oauthTokens = sqliteTable("oauth_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  kind: text("kind", { enum: ["access", "refresh"] }).notNull(),
  grantId: text("grant_id")
    .notNull()
    .references(() => oauthGrants.id, { onDelete: "cascade" }),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at").notNull(),
  /** Refresh tokens only: when it was exchanged; presenting it again revokes the grant. */
  rotatedAt: text("rotated_at"),
  revokedAt: text("revoked_at"),
});
export type OAuthTokenRow = typeof oauthTokens.$inferSelect;
