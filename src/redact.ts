// Scrubs secrets from text bound for logs: our prefixed credentials, bearer tokens, secret query and
// form parameters, URL passwords and secret-named JSON fields. The last line of defence, not the first.

// Our own credentials carry a prefix (cpk_ keys, cpw_ webhook tokens, cpat_/cprt_/cpac_ OAuth
// tokens and codes, whsec_ signing secrets): kept as a hint, e.g. `cpw_abcd…`.
const PREFIXED = /\b(cpk|cpw|cpat|cprt|cpac|whsec)_([A-Za-z0-9_\-+/=]{0,4})[A-Za-z0-9_\-+/=]*/g;
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
// Query strings and form bodies: ?code=…&token=…
const SECRET_PARAM =
  /\b(code|token|access_token|refresh_token|id_token|client_secret|password|passwd|secret|api_key|apikey|key|code_verifier|signature)=[^&#\s"'\\]*/gi;
// smtp://user:password@host
const URL_PASSWORD = /(\/\/[^/\s:@"'\\]+):[^@/\s"'\\]+@/g;
// "password":"…", "refresh_token":"…", "authorization":"…" (a JSON-serialised field)
const SECRET_FIELD =
  /"([A-Za-z_]*(?:password|secret|token|authorization|cookie|code_verifier|api_key))"(\s*:\s*)"(?:[^"\\]|\\.)*"/gi;
// Cheap test first: most lines hold none of these and skip the replaces.
const MAYBE =
  /cpk_|cpw_|cpat_|cprt_|cpac_|whsec_|bearer|basic|=|:\/\/|password|secret|token|authorization|cookie|code_verifier|api_key/i;

export function redactSecrets(text: string): string {
  if (!MAYBE.test(text)) return text;
  return text
    .replace(PREFIXED, (_m, prefix: string, head: string) => `${prefix}_${head}…`)
    .replace(AUTH_SCHEME, "$1 [redacted]")
    .replace(SECRET_FIELD, '"$1"$2"[redacted]"')
    .replace(SECRET_PARAM, "$1=[redacted]")
    .replace(URL_PASSWORD, "$1:[redacted]@");
}
