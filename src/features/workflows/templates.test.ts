// Tests for the workflow template language: parsing, rendering, references and safety.
import { describe, expect, test } from "bun:test";
import {
  TEMPLATE_LIMITS,
  TemplateRenderError,
  TemplateSyntaxError,
  collectReferences,
  formatPath,
  parseTemplate,
  render,
  validateTemplates,
} from "./templates.ts";

const scope = {
  url: "https://example.com/a b",
  title: "Hello World",
  count: 3,
  zero: 0,
  flag: false,
  nothing: null,
  empty: "",
  trigger: { items: [{ name: "first" }, { name: "second" }], "weird key": "w", "content-type": "text/html" },
  event: { data: { id: "src_1" } },
  steps: { save: { source: { id: "src_9", tags: ["a", "b"] } } },
};

const one = (s: string, sc: Record<string, unknown> = scope) => render(s, sc);

describe("parseTemplate", () => {
  test("splits text and tags with paths, filters and offsets", () => {
    const { parts } = parseTemplate('Hi {{trigger.items[0].name}} and {{ x | default: "n/a" | upper }}!');
    expect(parts).toEqual([
      "Hi ",
      { path: ["trigger", "items", "0", "name"], filters: [], raw: "{{trigger.items[0].name}}", offset: 3 },
      " and ",
      {
        path: ["x"],
        filters: [{ name: "default", arg: "n/a" }, { name: "upper" }],
        raw: '{{ x | default: "n/a" | upper }}',
        offset: 33,
      },
      "!",
    ]);
  });

  test.each([
    ["{{ a.b.c }}", ["a", "b", "c"]],
    ["{{ items.0.name }}", ["items", "0", "name"]],
    ["{{ items[ 12 ] }}", ["items", "12"]],
    ['{{ trigger["weird key"] }}', ["trigger", "weird key"]],
    ["{{ trigger['it\\'s'] }}", ["trigger", "it's"]],
    ["{{ headers.content-type }}", ["headers", "content-type"]],
    ["{{ $x._y }}", ["$x", "_y"]],
    ["{{ título }}", ["título"]],
  ])("path %s", (src, path) => {
    const tag = parseTemplate(src).parts[0];
    expect(typeof tag === "object" && tag.path).toEqual(path);
  });

  test.each([
    ['{{ x | default: "a b" }}', "a b"],
    ["{{ x | default: 'single' }}", "single"],
    ['{{ x | default: "say \\"hi\\"\\n" }}', 'say "hi"\n'],
    ['{{ x | default: "}}" }}', "}}"],
    ["{{ x | default: 42 }}", 42],
    ["{{ x | default: -1.5 }}", -1.5],
    ["{{ x | default: true }}", true],
    ["{{ x|default:false }}", false],
  ])("default argument %s", (src, arg) => {
    const tag = parseTemplate(src).parts[0];
    expect(typeof tag === "object" && tag.filters[0]?.arg).toEqual(arg);
  });

  test.each([
    ["a {{ b", 'unclosed "{{"', 2],
    ["{{ a.b", 'unclosed "{{"', 0],
    ["x {{ a | json", 'unclosed "{{"', 2],
    ["{{ }}", "empty expression", 0],
    ["ok {{}}", "empty expression", 3],
    ["{{ 1abc }}", "expected a variable name", 3],
    ["{{ | json }}", "expected a variable name", 3],
    ["{{ a..b }}", 'expected a property name after "."', 5],
    ["{{ a. }}", 'expected a property name after "."', 5],
    ["{{ a[x] }}", 'expected a number or a quoted key inside "[ ]"', 5],
    ["{{ a[-1] }}", 'expected a number or a quoted key inside "[ ]"', 5],
    ["{{ a[0 }}", 'expected "]"', 7],
    ["{{ a b }}", 'expected "|" or "}}", found "b"', 5],
    ["{{ a() }}", 'expected "|" or "}}", found "("', 4],
    ["{{ a + 1 }}", 'expected "|" or "}}", found "+"', 5],
    ["{{ a | shout }}", 'unknown filter "shout"', 7],
    ["{{ a | }}", 'expected a filter name after "|"', 7],
    ["{{ a | default }}", 'filter "default" needs a value', 15],
    ["{{ a | default: }}", "expected a string, number or boolean", 16],
    ["{{ a | default: nope }}", "expected a string, number or boolean", 16],
    ["{{ a | json: 1 }}", 'filter "json" takes no argument', 13],
    ['{{ a | default: "open }}', "unterminated string", 16],
    ['{{ a | default: "\\q" }}', "unknown escape in string", 18],
  ])("syntax error in %s", (src, reason, position) => {
    let caught: unknown;
    try {
      parseTemplate(src);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(TemplateSyntaxError);
    const err = caught as TemplateSyntaxError;
    expect(err.reason).toContain(reason);
    expect(err.position).toBe(position);
    expect(err.message).toContain(`at position ${position}`);
  });

  test("refuses overlong paths, filter chains and sources", () => {
    expect(() => parseTemplate(`{{ a${".b".repeat(TEMPLATE_LIMITS.maxPathSegments)} }}`)).toThrow("path longer than");
    expect(() => parseTemplate(`{{ a${" | trim".repeat(TEMPLATE_LIMITS.maxFilters + 1)} }}`)).toThrow("more than");
    expect(() => parseTemplate(`{{ a }}${"x".repeat(TEMPLATE_LIMITS.maxSourceLength)}`)).toThrow(
      "template longer than",
    );
  });

  test.each([
    ["\\{{ a }}", ["{{ a }}"]],
    ["x \\{{ a }} y", ["x {{ a }} y"]],
    ["}} and { single }", ["}} and { single }"]],
    ["back\\slash", ["back\\slash"]],
  ])("literal text %s", (src, parts) => {
    expect(parseTemplate(src).parts).toEqual(parts);
  });

  test("a double backslash before {{ is one backslash then a tag", () => {
    const { parts } = parseTemplate("\\\\{{ a }}");
    expect(parts[0]).toBe("\\");
    expect(typeof parts[1] === "object" && parts[1].path).toEqual(["a"]);
  });
});

describe("render: type preservation", () => {
  test.each<[string, unknown]>([
    ["{{ trigger.items }}", scope.trigger.items],
    ["  {{ count }}\n", 3],
    ["{{ zero }}", 0],
    ["{{ flag }}", false],
    ["{{ nothing }}", null],
    ["{{ steps.save.source }}", scope.steps.save.source],
    ["{{ steps.save.source.tags[1] }}", "b"],
    ["{{ event.data.id }}", "src_1"],
    ['{{ trigger["weird key"] }}', "w"],
    ["{{ trigger.content-type }}", "text/html"],
    ["{{ trigger.items.1.name }}", "second"],
    ["{{ count | json }}", "3"],
  ])("%s", (src, expected) => {
    expect(one(src)).toEqual({ value: expected, missing: [] });
  });
});

describe("render: text", () => {
  test.each<[string, string]>([
    ["n={{ count }}", "n=3"],
    ["{{ zero }}{{ flag }}", "0false"],
    ["[{{ nothing }}]", "[]"],
    ["tags: {{ steps.save.source.tags }}", 'tags: ["a","b"]'],
    ["obj: {{ trigger.items[0] }}", 'obj: {"name":"first"}'],
    ["{{title}} / {{ title | lower }} / {{ title | upper }}", "Hello World / hello world / HELLO WORLD"],
    ["q={{ url | urlencode }}", "q=https%3A%2F%2Fexample.com%2Fa%20b"],
    ["{{ title | json }}!", '"Hello World"!'],
    ["{{ trigger.items[0] | json | urlencode }}", "%7B%22name%22%3A%22first%22%7D"],
    ["<{{ pad | trim }}>", "<x>"],
    ["{{ count | upper }}", "3"],
    ["\\{{ title }} is {{ title }}", "{{ title }} is Hello World"],
  ])("%s", (src, expected) => {
    expect(one(src, { ...scope, pad: "  x \n" })).toEqual({ value: expected, missing: [] });
  });

  test("values from the scope are inserted, never rendered again", () => {
    expect(one("{{ body }}!", { body: "{{ secret }}", secret: "s" })).toEqual({ value: "{{ secret }}!", missing: [] });
    expect(one("{{ body }}", { body: "{{ secret }}", secret: "s" }).value).toBe("{{ secret }}");
  });
});

describe("render: missing values and defaults", () => {
  test.each<[string, unknown, string[]]>([
    ["{{ nope }}", "", ["nope"]],
    ["a{{ nope.deeper }}b", "ab", ["nope.deeper"]],
    ["{{ trigger.items[5].name }}", "", ["trigger.items[5].name"]],
    ["{{ title.length }}", "", ["title.length"]],
    ["{{ trigger.items.name }}", "", ["trigger.items.name"]],
    ['{{ trigger["no such"] }}', "", ['trigger["no such"]']],
    ["{{ nope | json }}", "", ["nope"]],
    ["{{ nope | upper | urlencode }}", "", ["nope"]],
    ['{{ nope | default: "x" }}', "x", []],
    ["{{ nope | default: 7 }}", 7, []],
    ['{{ nothing | default: "was null" }}', "was null", []],
    ['{{ empty | default: "was empty" }}', "was empty", []],
    ['{{ zero | default: "z" }}', 0, []],
    ['{{ flag | default: "f" }}', false, []],
    ['{{ nope | default: "x" | upper }}', "X", []],
    ['id={{ nope | default: "none" }}', "id=none", []],
    ["{{ a }}{{ a }}{{ b }}", "", ["a", "b"]],
  ])("%s", (src, value, missing) => {
    expect(one(src)).toEqual({ value, missing });
  });
});

describe("render: deep values", () => {
  test("renders every string in nested objects and arrays and keeps other values", () => {
    const def = {
      method: "POST",
      url: "https://hooks.example/{{ event.data.id | urlencode }}",
      timeout_ms: 5000,
      store_response: true,
      headers: { "X-Title": "{{ title }}" },
      body: { ids: "{{ steps.save.source.tags }}", nested: [["{{ count }}", 1, null], { deep: "v{{ missing.one }}" }] },
    };
    const { value, missing } = render(def, scope);
    expect(value).toEqual({
      method: "POST",
      url: "https://hooks.example/src_1",
      timeout_ms: 5000,
      store_response: true,
      headers: { "X-Title": "Hello World" },
      body: { ids: ["a", "b"], nested: [[3, 1, null], { deep: "v" }] },
    });
    expect(missing).toEqual(["missing.one"]);
    expect(def.body.ids).toBe("{{ steps.save.source.tags }}");
  });

  test("keys are not templates and a __proto__ key stays plain data", () => {
    const def = JSON.parse('{"{{ title }}": "k", "__proto__": {"polluted": "{{ title }}"}}');
    const { value } = render(def, scope);
    expect(Object.keys(value as object)).toEqual(["{{ title }}", "__proto__"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: "Hello World" });
  });

  test("syntax errors carry the JSON path of the string", () => {
    let caught: unknown;
    try {
      render({ actions: [{ body: { ok: "{{ a }}", bad: "{{ a | nope }}" } }] }, scope);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(TemplateSyntaxError);
    expect((caught as TemplateSyntaxError).jsonPath).toBe("actions[0].body.bad");
  });

  test("refuses values nested too deeply", () => {
    let v: unknown = "{{ a }}";
    for (let i = 0; i <= TEMPLATE_LIMITS.maxDepth + 1; i++) v = [v];
    expect(() => render(v, scope)).toThrow(TemplateRenderError);
  });
});

describe("render: safety", () => {
  test.each([
    "{{ constructor }}",
    "{{ constructor.name }}",
    "{{ __proto__ }}",
    "{{ __proto__.toString }}",
    "{{ title.constructor }}",
    "{{ trigger.constructor.constructor }}",
    "{{ trigger.items.constructor.prototype }}",
    "{{ toString }}",
    "{{ hasOwnProperty }}",
    "{{ trigger.items.map }}",
    "{{ trigger.items.length }}",
    "{{ title[0] }}",
    '{{ trigger["__proto__"] }}',
  ])("%s is missing, never a function or internal", (src) => {
    const { value, missing } = one(src);
    expect(value).toBe("");
    expect(missing).toHaveLength(1);
  });

  test("does not traverse class instances, getters or functions", () => {
    let called = false;
    const withGetter = Object.defineProperty({}, "secret", {
      get: () => {
        called = true;
        return "leak";
      },
      enumerable: true,
    });
    const sc = { map: new Map([["a", 1]]), date: new Date(0), obj: withGetter, fn: () => "x", o: { fn: () => "y" } };
    for (const src of ["{{ map.size }}", "{{ date.getTime }}", "{{ obj.secret }}", "{{ fn }}", "{{ o.fn }}"]) {
      expect(render(src, sc).value).toBe("");
    }
    expect(called).toBe(false);
  });

  test("an own __proto__ key from JSON data is still refused", () => {
    const sc = { trigger: JSON.parse('{"__proto__": {"x": 1}}') };
    expect(render("{{ trigger.__proto__.x }}", sc).value).toBe("");
  });

  test("rendered text over the output limit is an error", () => {
    const big = "x".repeat(TEMPLATE_LIMITS.maxOutputLength / 4 + 1);
    expect(() => render("{{ big }}{{ big }}{{ big }}{{ big }}", { big })).toThrow(TemplateRenderError);
    expect(() => render("{{ arr | json }}", { arr: [big, big, big, big] })).toThrow("rendered text longer than");
    expect(render("{{ big }}{{ big }}", { big }).value).toHaveLength(big.length * 2);
  });
});

describe("collectReferences and validateTemplates", () => {
  const actions = [
    { id: "save", type: "create_source", url: "{{ url }}" },
    {
      id: "n",
      type: "http_request",
      url: "https://x/{{ steps.save.source.id }}?t={{ trigger['weird key'] | urlencode }}",
    },
    {
      id: "c",
      type: "condition",
      if: { all: [{ left: "{{ event.data.id }}", op: "exists" }] },
      then: [{ body: { "a-b": "{{ trigger.items[0].name }}" } }],
    },
    { id: "plain", text: "no templates here \\{{ x }}", n: 5 },
  ];

  test("lists every reference with the JSON path of its string", () => {
    expect(collectReferences(actions, "actions").map(({ jsonPath, path }) => ({ jsonPath, path }))).toEqual([
      { jsonPath: "actions[0].url", path: ["url"] },
      { jsonPath: "actions[1].url", path: ["steps", "save", "source", "id"] },
      { jsonPath: "actions[1].url", path: ["trigger", "weird key"] },
      { jsonPath: "actions[2].if.all[0].left", path: ["event", "data", "id"] },
      { jsonPath: 'actions[2].then[0].body["a-b"]', path: ["trigger", "items", "0", "name"] },
    ]);
  });

  test("without a root, paths start at the value", () => {
    expect(collectReferences({ a: ["{{ x }}"] })[0]?.jsonPath).toBe("a[0]");
    expect(collectReferences("{{ x }}")).toEqual([{ jsonPath: "", path: ["x"], raw: "{{ x }}" }]);
  });

  test("skips strings that do not parse; validateTemplates reports them", () => {
    const def = { ok: "{{ a }}", bad: ["{{ b", "{{ c | nope }}"] };
    expect(collectReferences(def).map((r) => r.path)).toEqual([["a"]]);
    expect(validateTemplates(def, "actions[3]")).toEqual([
      { jsonPath: "actions[3].bad[0]", message: 'unclosed "{{" at position 0' },
      {
        jsonPath: "actions[3].bad[1]",
        message: 'unknown filter "nope" (known: json, urlencode, default, lower, upper, trim) at position 7',
      },
    ]);
    expect(validateTemplates(actions)).toEqual([]);
  });
});

test.each([
  [["url"], "url"],
  [["steps", "save", "source", "id"], "steps.save.source.id"],
  [["items", "0", "name"], "items[0].name"],
  [["trigger", "weird key"], 'trigger["weird key"]'],
  [["h", "content-type"], "h.content-type"],
])("formatPath %j", (path, text) => {
  expect(formatPath(path)).toBe(text);
});
