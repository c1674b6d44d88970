// The closed set of error codes, their HTTP statuses and titles; services throw AppError(code).
export const ERROR_CODES = {
  bad_request: [400, "Bad request"],
  malformed_json: [400, "Malformed JSON"],
  unauthorized: [401, "Unauthorized"],
  invalid_credentials: [401, "Invalid credentials"],
  insufficient_credit: [402, "Insufficient credit"],
  forbidden: [403, "Forbidden"],
  csrf_failed: [403, "CSRF check failed"],
  signup_closed: [403, "Sign-up closed"],
  not_found: [404, "Not found"],
  method_not_allowed: [405, "Method not allowed"],
  conflict: [409, "Conflict"],
  idempotency_in_progress: [409, "Request in progress"],
  payload_too_large: [413, "Payload too large"],
  unsupported_media_type: [415, "Unsupported media type"],
  range_not_satisfiable: [416, "Range not satisfiable"],
  header_fields_too_large: [431, "Request header fields too large"],
  validation_failed: [422, "Validation failed"],
  idempotency_mismatch: [422, "Idempotency key reused"],
  rate_limited: [429, "Too many requests"],
  internal_error: [500, "Internal server error"],
  upstream_error: [502, "Upstream error"],
  service_unavailable: [503, "Service unavailable"],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail ?? ERROR_CODES[code][1]);
    this.status = ERROR_CODES[code][0];
  }
}

export const notFound = (what: string) => new AppError("not_found", `${what} not found`);

export const invalid = (path: string, message: string) =>
  new AppError("validation_failed", `${path}: ${message}`, { errors: [{ path, message }] });

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value);
}
