// Checks an email before it is built: addresses one by one, and no line breaks where they would start a header.
import { invalid } from "../../errors.ts";
import type { OutgoingMail } from "./port.ts";

export const MAX_RECIPIENTS = 50;
const MAX_SUBJECT = 998;
const MAX_BODY = 1_000_000;

const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL = `${ATOM}(?:\\.${ATOM})*`;
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const ADDR = `${LOCAL}@${LABEL}(?:\\.${LABEL})*`;
const BARE = new RegExp(`^${ADDR}$`);
// "Display Name <addr>": the name may not carry quotes, angle brackets, separators or controls.
const NAMED = new RegExp(`^([^<>"\\\\,;:@\\u0000-\\u001f\\u007f]{1,100}?)\\s*<(${ADDR})>$`);
// CR and LF end a header line; other controls have no business in one either (tab is folding whitespace).
const HEADER_BREAK = /[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029\u0085]/;

/** One recipient: "user@example.com" or "Name <user@example.com>"; a comma is not a list here. */
export function checkAddress(raw: unknown, path: string): string {
  if (typeof raw !== "string") throw invalid(path, "must be an email address");
  const value = raw.trim();
  if (HEADER_BREAK.test(value)) throw invalid(path, "must not contain line breaks or control characters");
  if (value.length > 320) throw invalid(path, "is too long for an email address");
  if (BARE.test(value)) return value;
  const named = NAMED.exec(value);
  if (named) return `${named[1]!.trim()} <${named[2]}>`;
  throw invalid(path, `"${value.slice(0, 80)}" is not an email address`);
}

export interface MailInput {
  to: unknown;
  subject: unknown;
  text: unknown;
  html?: unknown;
}

/** The message as it will be sent, or a 422 naming the field (to[1], subject, …). */
export function checkMessage(input: MailInput): OutgoingMail {
  const list = Array.isArray(input.to) ? input.to : [input.to];
  if (list.length === 0) throw invalid("to", "must name at least one recipient");
  if (list.length > MAX_RECIPIENTS) throw invalid("to", `must name at most ${MAX_RECIPIENTS} recipients`);
  const to = list.map((a, i) => checkAddress(a, Array.isArray(input.to) ? `to[${i}]` : "to"));
  if (typeof input.subject !== "string") throw invalid("subject", "must be a string");
  if (HEADER_BREAK.test(input.subject)) throw invalid("subject", "must not contain line breaks or control characters");
  if (input.subject.length > MAX_SUBJECT) throw invalid("subject", `must be at most ${MAX_SUBJECT} characters`);
  if (typeof input.text !== "string") throw invalid("text", "must be a string");
  if (input.text.length > MAX_BODY) throw invalid("text", `must be at most ${MAX_BODY} characters`);
  const mail: OutgoingMail = { to, subject: input.subject, text: input.text };
  if (input.html !== undefined && input.html !== null && input.html !== "") {
    if (typeof input.html !== "string") throw invalid("html", "must be a string");
    if (input.html.length > MAX_BODY) throw invalid("html", `must be at most ${MAX_BODY} characters`);
    mail.html = input.html;
  }
  return mail;
}

/** The domain of the From address, for Message-IDs. */
export function domainOf(from: string): string {
  return /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "localhost";
}
