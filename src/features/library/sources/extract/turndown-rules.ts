// Turndown rules for our Markdown: absolute links and images, no empty links, simple GFM tables.
import type TurndownService from "turndown";
import { baseOf, resolveUrl } from "./dom.ts";

const DROPPED_TAGS = [
  "script",
  "style",
  "noscript",
  "template",
  "iframe",
  "object",
  "embed",
  "svg",
  "canvas",
  "button",
  "input",
  "select",
  "textarea",
];

function escapeUrl(url: string): string {
  return url.replace(/ /g, "%20").replace(/\(/g, "%28").replace(/\)/g, "%29");
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ");
}

/** Absolute target for a link or image; script and inline-data URLs have none worth keeping. */
function linkTarget(raw: string | null, node: HTMLElement): string | null {
  if (!raw || /^\s*(javascript|data|vbscript):/i.test(raw)) return null;
  return resolveUrl(raw, baseOf(node));
}

function imageSource(node: HTMLElement): string | null {
  const src = node.getAttribute("src") || node.getAttribute("srcset")?.trim().split(/\s+/)[0] || null;
  return linkTarget(src, node);
}

function isCell(node: Node): boolean {
  return node.nodeName === "TD" || node.nodeName === "TH";
}

function cell(content: string, node: HTMLElement): string {
  const text = content
    .replace(/\s*\n+\s*/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
  const first = node.parentNode?.firstElementChild === node;
  return `${first ? "|" : ""} ${text} |`;
}

function isHeadRow(row: HTMLElement): boolean {
  const table = row.closest("table");
  return table?.querySelector("tr") === row;
}

function listItem(content: string, node: HTMLElement): string {
  const parent = node.parentNode as HTMLElement | null;
  let prefix = "- ";
  if (parent?.nodeName === "OL") {
    const start = Number(parent.getAttribute("start")) || 1;
    prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
  }
  const isParagraph = /\n$/.test(content);
  const body = content.replace(/^\n+|\n+$/g, "") + (isParagraph ? "\n" : "");
  return prefix + body.replace(/\n/g, `\n${" ".repeat(prefix.length)}`) + (node.nextSibling ? "\n" : "");
}

const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/;

function codeBlock(_content: string, node: HTMLElement): string {
  const code = node.querySelector("code");
  const language =
    LANGUAGE_CLASS.exec(`${node.getAttribute("class") ?? ""} ${code?.getAttribute("class") ?? ""}`)?.[1] ?? "";
  const text = (node.textContent ?? "").replace(/\n$/, "");
  const longestRun = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longestRun + 1);
  return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
}

// CommonMark also starts an ordered list at "1)" (Turndown escapes only "1."): "1) Lego" must stay text.
const PAREN_ORDINAL = /^(\s*\d{1,9})\) /;

export function addRules(service: TurndownService): void {
  const escapeMarkdown = service.escape.bind(service);
  service.escape = (text: string) => escapeMarkdown(text).replace(PAREN_ORDINAL, "$1\\) ");
  service.remove(DROPPED_TAGS as (keyof HTMLElementTagNameMap)[]);
  service.addRule("link", {
    filter: (node) => node.nodeName === "A" && node.hasAttribute("href"),
    replacement: (content, node) => {
      const label = content.trim();
      if (!label) return "";
      const href = linkTarget(node.getAttribute("href"), node);
      return href ? `[${oneLine(label)}](${escapeUrl(href)})` : label;
    },
  });
  service.addRule("image", {
    filter: "img",
    replacement: (_content, node) => {
      const src = imageSource(node);
      if (!src) return "";
      return `![${oneLine(node.getAttribute("alt") ?? "").replace(/([[\]\\])/g, "\\$1")}](${escapeUrl(src)})`;
    },
  });
  service.addRule("listItem", { filter: "li", replacement: listItem });
  service.addRule("codeBlock", { filter: "pre", replacement: codeBlock });
  service.addRule("tableCell", { filter: ["th", "td"], replacement: cell });
  service.addRule("tableRow", {
    filter: "tr",
    replacement: (content, node) => {
      if (!isHeadRow(node)) return `\n${content}`;
      const cells = Array.from(node.children).filter(isCell).length;
      return `\n${content}\n|${" --- |".repeat(Math.max(cells, 1))}`;
    },
  });
  service.addRule("tableSection", { filter: ["thead", "tbody", "tfoot"], replacement: (content) => content });
  service.addRule("table", {
    filter: "table",
    replacement: (content) => `\n\n${content.replace(/^\n+|\n+$/g, "")}\n\n`,
  });
}

/** Blank cells must still be cells, or the table falls apart; other blanks keep Turndown's default. */
export function blankReplacement(_content: string, node: HTMLElement): string {
  if (isCell(node)) return cell("", node);
  return (node as HTMLElement & { isBlock?: boolean }).isBlock ? "\n\n" : "";
}
