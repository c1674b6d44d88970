// HTTPS through a pinned address: SNI and certificate checks stay on the host name, not the dialled IP.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { FetchError } from "./errors.ts";
import { createFetchPolicy } from "./fetch-policy.ts";
import { createSafeFetch, type SafeFetchOptions } from "./safe-fetch.ts";
import { fakeLookup } from "./test-server.ts";
import { SECURE_TEST_CERT, SECURE_TEST_KEY, TEST_CA } from "../../test/fixtures/test-pki.ts";

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
  policy: createFetchPolicy({ allowPrivateNetwork: false, allowedHosts: ["secure.test", "other.test", "127.0.0.1"] }),
  maxBytes: 100_000,
  timeoutMs: 5_000,
  connectTimeoutMs: 5_000,
  lookup,
  ca: TEST_CA,
};

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  const err = await promise.then(
    () => new Error("expected a failure"),
    (e: unknown) => e,
  );
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
  expect((await failure(createSafeFetch(base)(`https://127.0.0.1:${server.port}/`))).message).toContain(
    "TLS certificate check failed for 127.0.0.1",
  );
});

test("certificates are verified: without the test CA the same request fails", async () => {
  const { ca: _ca, ...withoutCa } = base;
  expect((await failure(createSafeFetch(withoutCa)(`https://secure.test:${server.port}/`))).message).toContain(
    "TLS certificate check failed for secure.test",
  );
});
