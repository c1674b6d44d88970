// oauth_tokens (PostgreSQL twin): opaque access and refresh tokens, SHA-256 hashes, each in one grant.
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { oauthGrants } from "./oauth-grants.ts";

export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    kind: text("kind", { enum: ["access", "refresh"] }).notNull(),
    grantId: text("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    rotatedAt: text("rotated_at"),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("oauth_tokens_grant").on(t.grantId, t.expiresAt)],
);
