// The template escapes by default, passes raw() and nested templates through, and pages carry security headers.
import { describe, expect, test } from "bun:test";
import { contentSecurityPolicy, SCRIPT, STYLE } from "./assets.ts";
import { escapeHtml, html, layout, pageResponse, raw } from "./html.ts";

describe("html template", () => {
  test("escapes the five significant characters in every value", () => {
    expect(html`<p title="${`"'&<>`}">${"<script>alert('x')</script>"}</p>`.value).toBe(
      `<p title="&quot;&#39;&amp;&lt;&gt;">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</p>`,
    );
    expect(escapeHtml("a & b")).toBe("a &amp; b");
  });

  test("raw() and nested templates pass through once, arrays are joined, empty values vanish", () => {
    const items = ["<a>", "b"].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${items}</ul>`.value).toBe("<ul><li>&lt;a&gt;</li><li>b</li></ul>");
    expect(html`${raw("<hr>")}${null}${undefined}${false}${0}`.value).toBe("<hr>0");
  });

  test("the layout escapes the title and user, and offers sign-out only to a signed-in user", () => {
    const body = html`<p>hi</p>`;
    const out = layout({ title: "<T>", body, user: { name: "n", email: "<e>@x.io", csrfToken: "tok" } }).value;
    expect(out).toContain("<title>&lt;T&gt; · Commonplace</title>");
    expect(out).toContain('title="Signed in as &lt;e&gt;@x.io"');
    expect(out).toContain('action="/signout"');
    expect(layout({ title: "x", body }).value).not.toContain('action="/signout"');
  });

  test("pages allow exactly the inline style and script they carry", async () => {
    const res = pageResponse(layout({ title: "x", body: html`` }), { status: 201 });
    const hash = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("base64");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toBe(contentSecurityPolicy());
    expect(csp).toContain(`script-src 'sha256-${hash(SCRIPT)}'`);
    expect(csp).toContain(`style-src 'sha256-${hash(STYLE)}'`);
    expect(csp).toContain("default-src 'none'");
    expect(res.status).toBe(201);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const text = await res.text();
    expect(text).toContain(`<script>${SCRIPT}</script>`);
    expect(text).toContain(`<style>${STYLE}</style>`);
  });
});
