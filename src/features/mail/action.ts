// The send_email workflow action: templated message, checked, sent through SMTP or kept in the outbox.
import { t } from "elysia";
import type { FieldError } from "../../errors.ts";
import { AppError } from "../../errors.ts";
import { actionSchema, asStepFailure } from "../workflows/actions/base.ts";
import type { FieldSpec } from "../workflows/actions/fields.ts";
import { StepFailure, type ActionModule } from "../workflows/actions/types.ts";
import { checkAddress, MAX_RECIPIENTS } from "./message.ts";
import { MailError } from "./port.ts";
import type { MailService } from "./service.ts";

declare module "../workflows/actions/types.ts" {
  interface ActionDeps {
    /** The mail service (SMTP or outbox), passed by the composition root. */
    mail?: Pick<MailService, "send">;
  }
}

export const SEND_TRIES = 5;
const isTemplate = (v: unknown): boolean => typeof v === "string" && v.includes("{{");

/** Save-time checks: literal addresses must be addresses, and no literal line break may sit in a header. */
export function validateSendEmail(action: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const list = Array.isArray(action.to) ? action.to : [action.to];
  list.forEach((a, i) => {
    const path = Array.isArray(action.to) ? `to[${i}]` : "to";
    if (typeof a === "string" && /[\r\n]/.test(a)) errors.push({ path, message: "must not contain line breaks" });
    else if (typeof a === "string" && !isTemplate(a)) {
      try {
        checkAddress(a, path);
      } catch (err) {
        if (err instanceof AppError) errors.push(...(err.extra.errors ?? []));
      }
    }
  });
  if (typeof action.subject === "string" && /[\r\n]/.test(action.subject))
    errors.push({ path: "subject", message: "must not contain line breaks" });
  return errors;
}

function mailFailure(err: MailError): StepFailure {
  if (err.transient) return new StepFailure("mail_temporary_failure", err.message, { retryable: true });
  return new StepFailure("mail_rejected", err.message, {
    output: { response: err.response, response_code: err.responseCode },
  });
}

const FIELDS: FieldSpec[] = [
  {
    key: "to",
    label: "To",
    kind: "list",
    required: true,
    hint: "An address, several separated by commas, a template, or a JSON list.",
  },
  { key: "subject", label: "Subject", kind: "text", required: true },
  { key: "text", label: "Text", kind: "textarea", required: true },
  { key: "html", label: "HTML (optional)", kind: "textarea" },
];

export const sendEmail: ActionModule = {
  type: "send_email",
  title: "Send an email",
  idBase: "email",
  fields: FIELDS,
  outputs: [
    "transport",
    "message_id",
    "to",
    "to.*",
    "subject",
    "accepted",
    "accepted.*",
    "rejected",
    "rejected.*",
    "response",
    "outbox",
    "note",
  ],
  summary: (a) => `to ${Array.isArray(a.to) ? a.to.join(", ") : String(a.to ?? "")}`,
  available: true,
  mode: "external",
  schema: actionSchema(
    "send_email",
    {
      to: t.Union(
        [
          t.Array(t.String({ minLength: 1, maxLength: 2048 }), { minItems: 1, maxItems: MAX_RECIPIENTS }),
          t.String({ minLength: 1, maxLength: 2048 }),
        ],
        {
          description: 'One address or a list; "Name <user@example.com>" allowed; a template may yield a list',
        },
      ),
      subject: t.String({ maxLength: 1000, description: "One line" }),
      text: t.String({ maxLength: 100_000 }),
      html: t.Optional(t.String({ maxLength: 500_000 })),
    },
    "Send an email through SMTP_URL, or keep it in the outbox (Settings → Outbox) when none is set. Output: {transport, message_id, to, accepted, rejected, response, outbox}",
  ),
  validate: (action) => validateSendEmail(action),
  maxTries: () => SEND_TRIES,
  async run(input, env) {
    const mail = env.deps.mail;
    if (!mail) throw new StepFailure("action_unavailable", "send_email is not wired to a mailer");
    try {
      // One Message-ID for every try of this step: a retry is recognisably the same message.
      const sent = await mail.send(
        { to: input.to, subject: input.subject, text: input.text, html: input.html },
        { idKey: `${env.run.id}.${env.action.id}`, owner: env.run.userId },
      );
      return { output: sent };
    } catch (err) {
      if (err instanceof MailError) throw mailFailure(err);
      return asStepFailure(err);
    }
  },
};
