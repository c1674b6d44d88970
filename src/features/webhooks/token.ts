// Webhook token values: 32 random bytes, URL-safe, recognisable by prefix; only their hash is stored.
import { hashSecret, randomToken } from "../../crypto.ts";

const PREFIX = "cpw_";
const TOKEN_RE = /^cpw_[A-Za-z0-9_-]{43}$/;

export function generateWebhookToken(): string {
  return PREFIX + randomToken(32);
}

/** Cheap shape check before any lookup: a malformed token is simply unknown. */
export function looksLikeWebhookToken(value: string): boolean {
  return TOKEN_RE.test(value);
}

export const hashWebhookToken = (token: string): string => hashSecret(token);

export const webhookTokenHint = (token: string): string => `${PREFIX}…${token.slice(-4)}`;

export const webhookUrl = (baseUrl: string, token: string): string => `${baseUrl}/api/webhooks/workflows/${token}`;
