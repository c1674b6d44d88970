// The network boundary: safeFetch and the pure address checks it is built on.
export { checkAddress, classifyAddress, type AddressCategory } from "./address.ts";
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
