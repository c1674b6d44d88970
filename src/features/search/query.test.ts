// Query sanitising (FTS5 syntax becomes plain words) and snippets with highlight offsets.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { ftsExpression, makeSnippet, queryTerms } from "./query.ts";

describe("ftsExpression", () => {
  test("quotes every word and joins them with OR, dropping stopwords when there is more", () => {
    expect(ftsExpression("How do I bake Sourdough bread?")).toBe('"bake" OR "sourdough" OR "bread"');
    expect(ftsExpression("to be or not to be")).toBe('"to" OR "be" OR "or" OR "not"');
    expect(ftsExpression("!!! ???")).toBeNull();
  });

  test("FTS5 operators and syntax are only words", () => {
    expect(ftsExpression('title:bread NEAR(a b) -crust "half* ^x')).toBe(
      '"title" OR "bread" OR "near" OR "b" OR "crust" OR "half" OR "x"',
    );
    expect(queryTerms("AND OR NOT")).toEqual(["and", "or", "not"]);
  });

  test("whatever the input, the expression is valid FTS5", () => {
    const db = new Database(":memory:");
    db.exec(
      "CREATE VIRTUAL TABLE f USING fts5(t, tokenize = 'porter unicode61 remove_diacritics 2'); INSERT INTO f VALUES ('bread and butter')",
    );
    const inputs = [
      '"',
      "*",
      "NEAR(",
      "-",
      '"unbalanced',
      "col:term",
      "a:b:c",
      "(((",
      ")",
      "^",
      "+",
      "'",
      "\\",
      "AND",
      "NOT x",
      "Crème brûlée",
      "日本語のテキスト",
      "x".repeat(300),
    ];
    for (const input of inputs) {
      const m = ftsExpression(input);
      if (m) expect(() => db.query("SELECT * FROM f WHERE f MATCH ?").all(m)).not.toThrow();
    }
    expect(db.query("SELECT * FROM f WHERE f MATCH ?").all(ftsExpression("Butter?")!)).toHaveLength(1);
  });

  test("a very long query keeps at most 32 terms", () => {
    const q = Array.from({ length: 100 }, (_, i) => `w${i}`).join(" ");
    expect(queryTerms(q)).toHaveLength(32);
  });
});

describe("makeSnippet", () => {
  test("plain text around the densest match, highlights pointing at the matched words", () => {
    const text = `# Title\n\n${"Filler words that say nothing much. ".repeat(20)}The **sourdough** starter needs [flour](http://x/flour) and water. ${"More filler text. ".repeat(20)}`;
    const s = makeSnippet(text, "sourdough flour");
    expect(s.snippet.length).toBeLessThanOrEqual(222);
    expect(s.snippet).toStartWith("…");
    expect(s.snippet).toEndWith("…");
    expect(s.snippet).not.toMatch(/[#*[\]()]/);
    expect(s.highlights.map((h) => s.snippet.slice(h.start, h.end))).toEqual(["sourdough", "flour"]);
  });

  test("a note's Markdown reads as text: list and quote markers, tasks, tables, tags, escapes and autolinks go", () => {
    const note = [
      "## Shopping",
      "- [ ] buy **flour**",
      "2. knead <em>gently</em>",
      "> proof \\*overnight\\*",
      "| a | b |",
      "|---|---|",
      "see <https://example.com/bread>",
    ].join("\n");
    const s = makeSnippet(note, "flour");
    expect(s.snippet).toBe("Shopping buy flour knead gently proof overnight a b see https://example.com/bread");
  });

  test("a short text is returned whole; stems match other forms of a word", () => {
    const s = makeSnippet("Baking bread at home.", "bake");
    expect(s.snippet).toBe("Baking bread at home.");
    expect(s.highlights.map((h) => s.snippet.slice(h.start, h.end))).toEqual(["Baking"]);
  });
});

describe("snippet highlights", () => {
  test("mark content words only, not stopwords like 'how' or 'a'", () => {
    const text = "How a colony decides: honeybee scouts dance for a new nest site.";
    const s = makeSnippet(text, "how do honeybees choose a nest");
    const marked = s.highlights.map((h) => s.snippet.slice(h.start, h.end).toLowerCase());
    expect(marked).toEqual(["honeybee", "nest"]);
  });

  test("a query of only stopwords still highlights its words", () => {
    const s = makeSnippet("To be or not to be.", "to be");
    expect(s.highlights.length).toBeGreaterThan(0);
  });
});
