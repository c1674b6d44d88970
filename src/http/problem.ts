// Renders RFC 9457 problem+json responses for the closed set of error codes.
import { ERROR_CODES, type ErrorCode, type FieldError } from "../errors.ts";

export interface ProblemInput {
  code: ErrorCode;
  detail?: string;
  errors?: FieldError[];
  requestId: string;
  headers?: Record<string, string | number | undefined>;
  instance?: string;
}

export const problemType = (code: ErrorCode) => `/api/problems/${code}`;

export function problemBody(p: ProblemInput) {
  const [status, title] = ERROR_CODES[p.code];
  return {
    type: problemType(p.code),
    title,
    status,
    detail: p.detail ?? title,
    code: p.code,
    request_id: p.requestId,
    ...(p.instance ? { instance: p.instance } : {}),
    ...(p.errors?.length ? { errors: p.errors } : {}),
  };
}

export function problemResponse(p: ProblemInput): Response {
  const body = problemBody(p);
  const headers = new Headers();
  for (const [k, v] of Object.entries(p.headers ?? {})) if (v !== undefined) headers.set(k, String(v));
  headers.set("content-type", "application/problem+json");
  headers.set("x-request-id", p.requestId);
  return new Response(JSON.stringify(body), { status: body.status, headers });
}
