// The network boundary: safeFetch, the fetch policy it and every caller share, and the pure address checks.
export { checkAddress, classifyAddress, type AddressCategory } from "./address.ts";
export {
  checkFetchableUrl,
  createFetchPolicy,
  type FetchableUrl,
  type FetchPolicy,
  type FetchPolicyOptions,
} from "./fetch-policy.ts";
export { FETCH_ERROR_CODES, FetchError, isFetchError, type FetchErrorCode } from "./errors.ts";
export { parseHostForCheck, type ParsedHost } from "./ip.ts";
export type { LookupAddress, LookupFn } from "./policy.ts";
export type { SafeBody } from "./request.ts";
export type { SafeResponse } from "./response.ts";
export {
  createSafeFetch,
  DEFAULT_USER_AGENT,
  type SafeFetch,
  type SafeFetchInit,
  type SafeFetchOptions,
} from "./safe-fetch.ts";
