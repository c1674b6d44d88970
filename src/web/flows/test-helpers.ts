// Test support for the workflow pages: submit a page's form the way a browser would (every control's
// current value, the pressed button's name and value), so the editor's round trips are tested whole.
import { parseHTML } from "linkedom";
import type { TestContext } from "../../../test/helpers.ts";
import type { PageResult, TestBrowser } from "../../../test/browser-client.ts";
import { send } from "../library/test-helpers.ts";

// linkedom keeps a <textarea>'s text as written; browsers decode its character references.
const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&amp;": "&" };
const textareaValue = (el: { textContent: string | null }) =>
  (el.textContent ?? "").replace(/^\n/, "").replace(/&(lt|gt|quot|#39|amp);/g, (m) => ENTITIES[m]!);

/** The form data set of the form posting to `action`: [name, value] pairs in document order. */
export function formData(page: string, action: string): [string, string][] {
  const { document } = parseHTML(page);
  const form = [...document.querySelectorAll("form")].find((f) => f.getAttribute("action") === action);
  if (!form) throw new Error(`no form posting to ${action}`);
  const out: [string, string][] = [];
  for (const el of form.querySelectorAll("input, select, textarea")) {
    const name = el.getAttribute("name");
    if (!name || el.hasAttribute("disabled")) continue;
    const tag = el.tagName.toLowerCase();
    if (tag === "select") {
      const opts = [...el.querySelectorAll("option")];
      const chosen = opts.find((o) => o.hasAttribute("selected")) ?? opts[0];
      if (chosen) out.push([name, chosen.getAttribute("value") ?? chosen.textContent ?? ""]);
    } else if (tag === "textarea") {
      out.push([name, textareaValue(el)]);
    } else {
      const type = (el.getAttribute("type") ?? "text").toLowerCase();
      if ((type === "checkbox" || type === "radio") && !el.hasAttribute("checked")) continue;
      out.push([name, el.getAttribute("value") ?? (type === "checkbox" ? "on" : "")]);
    }
  }
  return out;
}

export interface Edit {
  /** Replace these fields' values (a field not on the page is added). */
  set?: Record<string, string>;
  /** Untick these checkboxes / drop these fields. */
  drop?: string[];
  /** The button pressed: its `op` value. */
  op?: string;
}

/** Submits the form of `page` posting to `action`, as a browser would after the user's edits. */
export function submitForm(
  ctx: TestContext,
  b: TestBrowser,
  page: PageResult | string,
  action: string,
  edit: Edit = {},
): Promise<PageResult> {
  const text = typeof page === "string" ? page : page.text;
  const pairs = formData(text, action).filter(([k]) => !edit.drop?.includes(k));
  const form = new URLSearchParams();
  const pending = new Map(Object.entries(edit.set ?? {}));
  for (const [k, v] of pairs) {
    if (pending.has(k)) {
      form.append(k, pending.get(k)!);
      pending.delete(k);
    } else form.append(k, v);
  }
  for (const [k, v] of pending) form.append(k, v);
  if (edit.op) form.append("op", edit.op);
  return send(ctx, b, action, form);
}

/** The text of the field error shown beside a field (by its id). */
export function errorBeside(page: string, fieldId: string): string | null {
  const { document } = parseHTML(page);
  return document.getElementById(`${fieldId}-error`)?.textContent?.trim() ?? null;
}

/** The value of a named control on the page. */
export function fieldValue(page: string, name: string): string | undefined {
  const { document } = parseHTML(page);
  const el = [...document.querySelectorAll("[name]")].find((e) => e.getAttribute("name") === name);
  if (!el) return undefined;
  if (el.tagName.toLowerCase() === "textarea") return textareaValue(el);
  if (el.tagName.toLowerCase() === "select") {
    const opts = [...el.querySelectorAll("option")];
    return (opts.find((o) => o.hasAttribute("selected")) ?? opts[0])?.getAttribute("value") ?? undefined;
  }
  return el.getAttribute("value") ?? undefined;
}
