// /api/v1/imports (upload a file, follow its job) and /api/v1/export (the whole account, streamed).
import { Elysia, t } from "elysia";
import { AppError } from "../../errors.ts";
import { actorOf } from "../../http/auth.ts";
import { listOf, ListQuery, withLink } from "../../http/pagination.ts";
import type { AccountsService } from "../accounts/service.ts";
import type { ImportsService } from "./service.ts";
import { IMPORT_FORMATS, type ImportFormat } from "./formats/types.ts";
import { ImportPublic } from "./schema.ts";
import { type ExportDeps, exportJson, exportNetscape } from "./export.ts";
import { toPublicUser } from "../accounts/service.ts";
import { mediaType } from "../../media-type.ts";

const Params = t.Object({ id: t.String({ description: "An import id (imp_…)" }) });
const FORMATS = ["auto", ...IMPORT_FORMATS] as string[];

const uploadBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object",
        required: ["file"],
        properties: {
          file: { type: "string", format: "binary", description: "The exported file" },
          format: {
            type: "string",
            enum: FORMATS,
            default: "auto",
            description: "The file's format, or `auto` to detect it from the content",
          },
        },
      },
    },
  },
};

/** Reads the multipart form: `file` and an optional `format`. */
async function readUpload(
  request: Request,
): Promise<{ bytes: Uint8Array; filename: string | null; format: ImportFormat | "auto" }> {
  const type = mediaType(request.headers.get("content-type"));
  if (type !== "multipart/form-data")
    throw new AppError(
      "unsupported_media_type",
      `Send the file as multipart/form-data, not ${type || "an unlabelled body"}`,
    );
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new AppError("bad_request", "The multipart body could not be read");
  }
  const file = form.get("file");
  const format = (form.get("format") ?? "auto") as string;
  const errors: { path: string; message: string }[] = [];
  if (!(file instanceof Blob)) errors.push({ path: "file", message: "is required (a file part)" });
  if (typeof format !== "string" || !FORMATS.includes(format))
    errors.push({ path: "format", message: `must be one of ${FORMATS.join(", ")}` });
  for (const k of form.keys())
    if (k !== "file" && k !== "format") errors.push({ path: k, message: "is not a field of this form" });
  if (errors.length > 0)
    throw new AppError("validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
  const blob = file as File;
  return {
    bytes: new Uint8Array(await blob.arrayBuffer()),
    filename: blob.name || null,
    format: format as ImportFormat | "auto",
  };
}

export function importRoutes(s: { imports: ImportsService }) {
  return (
    new Elysia({ prefix: "/imports", tags: ["Import and export"] })
      // POST /api/v1/imports
      .post(
        "/",
        async ({ request, set }) => {
          const imp = await s.imports.create(actorOf(request), await readUpload(request));
          set.status = 202;
          set.headers["location"] = `/api/v1/imports/${imp.id}`;
          return imp;
        },
        {
          parse: "none",
          response: { 202: ImportPublic },
          detail: {
            operationId: "createImport",
            summary: "Import a file of saved links (202, runs as a background job)",
            description:
              "Multipart form with `file` and `format` (`auto` detects it). Netscape bookmark HTML (folders become notebooks, nested names joined with ` / `), Pocket CSV and HTML, Omnivore zip, Karakeep JSON, OPML, a plain list of URLs, or a Commonplace JSON export. The file is checked at once: an unreadable or mislabelled file is 422, too large 413. Entries are then applied in the background; follow `GET /api/v1/imports/{id}`. Importing the same file again creates nothing new.",
            requestBody: uploadBody,
          } as Record<string, unknown>,
        },
      )
      // GET /api/v1/imports
      .get(
        "/",
        async (ctx) => {
          const { limit = 20, cursor } = ctx.query;
          return withLink(await s.imports.list(actorOf(ctx.request), { limit, cursor }), limit, ctx);
        },
        {
          query: ListQuery,
          response: listOf(ImportPublic),
          detail: {
            operationId: "listImports",
            summary: "List imports, newest first",
            description: "Each with its status, counts and problems.",
          },
        },
      )
      // GET /api/v1/imports/{id}
      .get("/:id", ({ request, params }) => s.imports.get(actorOf(request), params.id), {
        params: Params,
        response: ImportPublic,
        detail: {
          operationId: "getImport",
          summary: "Get an import's status, counts and per-item problems",
          description:
            "`status` is queued, running, succeeded or failed; `counts` say how many entries were created, already saved, invalid or failed; `problems` name the entry, line and reason.",
        },
      })
  );
}

const ExportQuery = t.Object(
  {
    format: t.Optional(
      t.Union([t.Literal("json"), t.Literal("netscape")], {
        description: "`json` (default): everything, versioned; `netscape`: bookmark HTML for browsers",
      }),
    ),
  },
  { additionalProperties: false },
);

export function exportRoutes(s: ExportDeps & { accounts: Pick<AccountsService, "userById"> }) {
  return (
    new Elysia({ tags: ["Import and export"] })
      // GET /api/v1/export
      .get(
        "/export",
        async ({ request, query }) => {
          const actor = actorOf(request);
          const day = new Date(s.clock.now()).toISOString().slice(0, 10);
          if (query.format === "netscape") {
            return new Response(exportNetscape(s, actor), {
              headers: {
                "content-type": "text/html; charset=utf-8",
                "content-disposition": `attachment; filename="commonplace-bookmarks-${day}.html"`,
              },
            });
          }
          const user = toPublicUser(await s.accounts.userById(actor.userId));
          return new Response(exportJson(s, actor, user as unknown as Record<string, unknown>), {
            headers: {
              "content-type": "application/json; charset=utf-8",
              "content-disposition": `attachment; filename="commonplace-export-${day}.json"`,
            },
          });
        },
        {
          query: ExportQuery,
          detail: {
            operationId: "exportAccount",
            summary: "Export the whole account (streamed)",
            description:
              '`format=json` (default): one versioned JSON document (`format: "commonplace-export"`, `version: 1`) with the account, notebooks, sources (fields and extracted Markdown), notes, podcasts (metadata and transcripts), workflows (without signing secrets or header values) and feed watches; it can be imported again with `format: commonplace`. `format=netscape`: bookmark HTML that browsers import, notebooks as folders, `ADD_DATE` from `saved_at`, `TAGS`.',
            responses: {
              200: {
                description: "The export, as an attachment",
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      description: "See docs/import-export.md for the schema",
                      additionalProperties: true,
                    },
                  },
                  "text/html": { schema: { type: "string" } },
                },
              },
            },
          } as Record<string, unknown>,
        },
      )
  );
}
