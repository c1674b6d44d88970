// FetchError: why safeFetch refused or failed a request, with a stable code callers can branch on.

export const FETCH_ERROR_CODES = [
  "invalid_url",
  "unsupported_protocol",
  "blocked_address",
  "dns_failure",
  "connect_timeout",
  "timeout",
  "too_large",
  "too_many_redirects",
  "unsupported_content_type",
  "network_error",
] as const;

export type FetchErrorCode = (typeof FETCH_ERROR_CODES)[number];

export class FetchError extends Error {
  override readonly name = "FetchError";
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    /** The URL of the hop that failed, without credentials. */
    readonly url?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isFetchError(value: unknown): value is FetchError {
  return value instanceof FetchError;
}
