// TypeBox shapes for /me and /account.
import { t } from "elysia";
import { Int } from "../../http/schema.ts";

export const MePublic = t.Object({
  id: t.String(),
  email: t.String(),
  name: t.String(),
  created_at: t.String({ format: "date-time" }),
  auth: t.Object({
    type: t.String({ examples: ["api_key"] }),
    key_id: t.Optional(t.String()),
    key_name: t.Optional(t.String()),
    client_id: t.Optional(t.String()),
  }),
});

export const AccountPublic = t.Object({
  plan: t.Object({ id: t.String(), name: t.String(), monthly_credits: Int() }),
  credits: t.Object({
    allowance: Int(),
    used: Int(),
    remaining: Int(),
    period_start: t.String({ format: "date-time" }),
    period_end: t.String({ format: "date-time" }),
  }),
});
