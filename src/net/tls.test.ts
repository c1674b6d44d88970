// HTTPS through a pinned address: SNI and certificate checks stay on the host name, not the dialled IP.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FetchError } from "./errors.ts";
import { createSafeFetch, type SafeFetchOptions } from "./safe-fetch.ts";
import { fakeLookup } from "./test-server.ts";

// Test-only PKI, valid 2000–2100: a CA and a certificate for secure.test. Never trusted outside these tests.
const TEST_CA = `-----BEGIN CERTIFICATE-----
MIIBbzCCARagAwIBAgICEAAwCgYIKoZIzj0EAwIwHjEcMBoGA1UEAwwTQ29tbW9u
cGxhY2UgVGVzdCBDQTAgFw0wMDAxMDEwMDAwMDBaGA8yMTAwMDEwMTAwMDAwMFow
HjEcMBoGA1UEAwwTQ29tbW9ucGxhY2UgVGVzdCBDQTBZMBMGByqGSM49AgEGCCqG
SM49AwEHA0IABGzW3JKbGm4c9WHDtH6lDWoIupiA43tX/hNG+/2vIWmyPvQr5iZp
1FBmnrBB0rTleht/ikW1DZGHvKCUe7nrvbejQjBAMA8GA1UdEwEB/wQFMAMBAf8w
DgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBTpaqqoobOOXZjMytzMl3FZWVuRhjAK
BggqhkjOPQQDAgNHADBEAiBpP675VLpW2Jvk9wGky7jniMYXIdmjtRnuk80WCY1y
PgIgMYOT9D0TEb20k7aqh63PekJP6LXX7H8D+5y1FkRCu3c=
-----END CERTIFICATE-----`;
const SECURE_TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBsjCCAVigAwIBAgICEAEwCgYIKoZIzj0EAwIwHjEcMBoGA1UEAwwTQ29tbW9u
cGxhY2UgVGVzdCBDQTAgFw0wMDAxMDEwMDAwMDBaGA8yMTAwMDEwMTAwMDAwMFow
FjEUMBIGA1UEAwwLc2VjdXJlLnRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNC
AATkuXcYK0F/3cJcl2aCnbE5n+FcajOeOnO19iPxdV2Om7cHF3WUavFrISS9BR66
Emwms0/7yzCQ3RZXE/1LdHoAo4GLMIGIMAkGA1UdEwQCMAAwFgYDVR0RBA8wDYIL
c2VjdXJlLnRlc3QwEwYDVR0lBAwwCgYIKwYBBQUHAwEwDgYDVR0PAQH/BAQDAgeA
MB0GA1UdDgQWBBTvq+hm+KJrWVEj3453zP7z8VqF/jAfBgNVHSMEGDAWgBTpaqqo
obOOXZjMytzMl3FZWVuRhjAKBggqhkjOPQQDAgNIADBFAiEAwaNEx42B5rpgoeK0
RkzMMxqgjm2h+XyV/rOn3jIU8gICIAp3pGGOeiwTENFm4kPxzgNw17XFWmUlYjhD
GAC9qP3E
-----END CERTIFICATE-----`;
const SECURE_TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgrEc7OhNvl+cYiv2l
eHGIutn50KYgm2uxGlb9UM2nxNyhRANCAATkuXcYK0F/3cJcl2aCnbE5n+FcajOe
OnO19iPxdV2Om7cHF3WUavFrISS9BR66Emwms0/7yzCQ3RZXE/1LdHoA
-----END PRIVATE KEY-----`;

let server: ReturnType<typeof Bun.serve>;
const hosts: (string | null)[] = [];
beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls: { cert: SECURE_TEST_CERT, key: SECURE_TEST_KEY },
    fetch: (req) => {
      hosts.push(req.headers.get("host"));
      return new Response("secret page");
    },
  });
});
afterAll(() => server.stop(true));

const lookup = fakeLookup({ "secure.test": ["127.0.0.1"], "other.test": ["127.0.0.1"] }).lookup;
const base: SafeFetchOptions = {
  allowPrivateNetwork: false,
  allowedHosts: ["secure.test", "other.test", "127.0.0.1"],
  maxBytes: 100_000,
  timeoutMs: 5_000,
  connectTimeoutMs: 5_000,
  lookup,
  ca: TEST_CA,
};

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  const err = await promise.then(() => new Error("expected a failure"), (e: unknown) => e);
  if (!(err instanceof FetchError)) throw err;
  return err;
}

test("https to a pinned address verifies the certificate against the host name", async () => {
  const res = await createSafeFetch(base)(`https://secure.test:${server.port}/doc`);
  expect([res.status, res.text(), res.url]).toEqual([200, "secret page", `https://secure.test:${server.port}/doc`]);
  expect(hosts.at(-1)).toBe(`secure.test:${server.port}`);
});

test("a name the certificate does not cover fails, though it resolves to the same address", async () => {
  const before = hosts.length;
  const err = await failure(createSafeFetch(base)(`https://other.test:${server.port}/doc`));
  expect(err.code).toBe("network_error");
  expect(err.message).toContain("TLS certificate check failed for other.test");
  expect(hosts.length).toBe(before);
});

test("the IP itself is not a name on the certificate", async () => {
  expect((await failure(createSafeFetch(base)(`https://127.0.0.1:${server.port}/`))).message).toContain("TLS certificate check failed for 127.0.0.1");
});

test("certificates are verified: without the test CA the same request fails", async () => {
  const { ca: _ca, ...withoutCa } = base;
  expect((await failure(createSafeFetch(withoutCa)(`https://secure.test:${server.port}/`))).message).toContain("TLS certificate check failed for secure.test");
});
