// Checks a real HTTP response against the OpenAPI document: status declared, media type declared,
// declared headers present, body valid against the declared schema (JSON Schema 2020-12 via ajv).
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Json = Record<string, any>;

/**
 * Elysia emits OpenAPI 3.1, whose schemas are JSON Schema 2020-12: nullable fields are
 * `type: [T, "null"]` and need no translation. Only references into components are rewritten to
 * the schema's own $defs, and OpenAPI's annotation keywords are declared so strict mode accepts them.
 */
export function createValidator(doc: Json) {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat("binary", true);
  ajv.addVocabulary(["example", "discriminator", "xml", "externalDocs"]);
  const defs = rewriteRefs(doc.components?.schemas ?? {});
  const cache = new Map<unknown, ValidateFunction>();

  function compile(schema: Json): ValidateFunction {
    let fn = cache.get(schema);
    if (!fn) {
      fn = ajv.compile({ ...(rewriteRefs(schema) as Json), $defs: defs });
      cache.set(schema, fn);
    }
    return fn;
  }

  /** Problems with the value against the schema, as "path: message" lines (empty when valid). */
  function check(schema: Json, value: unknown): string[] {
    const fn = compile(schema);
    if (fn(value)) return [];
    return (fn.errors ?? []).map((e) => `${e.instancePath || "(root)"}: ${e.message} ${JSON.stringify(e.params)}`);
  }

  return { check };
}

/**
 * Points references at $defs and closes every object schema that does not say otherwise: a field
 * the document does not describe is a contract break too, not something to pass silently.
 */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    out[k] = k === "$ref" && typeof v === "string" ? v.replace("#/components/schemas/", "#/$defs/") : rewriteRefs(v);
  }
  if (out.type === "object" && out.properties && !("additionalProperties" in out) && !("patternProperties" in out))
    out.additionalProperties = false;
  return out;
}

export interface RealResponse {
  status: number;
  headers: Headers;
  text: string;
  bytes: number;
}

/** The response object the document declares for a status: exact, then 4XX/5XX, then default. */
export function declaredResponse(op: Json, status: number): Json | undefined {
  const r = op.responses ?? {};
  return r[String(status)] ?? r[`${String(status)[0]}XX`] ?? r.default;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

/** Everything wrong with a real response under the document; empty when it conforms. */
export function responseProblems(v: ReturnType<typeof createValidator>, op: Json, res: RealResponse): string[] {
  const declared = declaredResponse(op, res.status);
  if (!declared)
    return [`status ${res.status} is not declared (declared: ${Object.keys(op.responses ?? {}).join(", ")})`];
  const problems: string[] = [];
  for (const name of Object.keys(declared.headers ?? {})) {
    if (!res.headers.has(name)) problems.push(`declared header ${name} is missing`);
  }
  const content: Json | undefined = declared.content;
  if (!content || Object.keys(content).length === 0) {
    if (res.bytes > 0)
      problems.push(`status ${res.status} declares no body but one came (${res.headers.get("content-type")})`);
    return problems;
  }
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const media = content[type];
  if (!media)
    return [
      ...problems,
      `content type "${type}" is not declared for ${res.status} (declared: ${Object.keys(content).join(", ")})`,
    ];
  if (!media.schema) return problems;
  if (JSON_TYPE.test(type)) {
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch {
      return [...problems, `a ${type} body that is not JSON`];
    }
    return [...problems, ...v.check(media.schema, body)];
  }
  // Other media: a string schema; a binary format says nothing more about the bytes.
  if (media.schema.format === "binary") return res.bytes > 0 ? problems : [...problems, "an empty file"];
  return [...problems, ...v.check(media.schema, res.text)];
}
