// SSRF tests: every spelling of a non-public address is refused before any byte reaches the local server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSafeFetch, type SafeFetchOptions } from "./safe-fetch.ts";
import { FetchError } from "./errors.ts";
import { checkFetchableUrl, createFetchPolicy } from "./fetch-policy.ts";
import { fakeLookup, startTestServer, type TestServer } from "./test-server.ts";

let srv: TestServer;
beforeAll(() => {
  srv = startTestServer(() => new Response("reached"));
});
afterAll(() => srv.stop());

const allowing = (allowedHosts: string[]) => createFetchPolicy({ allowPrivateNetwork: false, allowedHosts });

const base: SafeFetchOptions = {
  policy: createFetchPolicy({ allowPrivateNetwork: false, allowedHosts: [] }),
  maxBytes: 1_000_000,
  timeoutMs: 5_000,
  connectTimeoutMs: 2_000,
};

async function refusal(promise: Promise<unknown>): Promise<FetchError> {
  const err = await promise.then(
    () => new Error("expected the fetch to be refused"),
    (e: unknown) => e,
  );
  if (!(err instanceof FetchError)) throw err;
  return err;
}

// Each one names the test server's own port where the address would reach it (loopback forms).
const spellings = (p: number): string[] => [
  `http://127.0.0.1:${p}/`,
  `http://127.1:${p}/`,
  `http://127.0.1:${p}/`,
  `http://2130706433:${p}/`,
  `http://0x7f000001:${p}/`,
  `http://0x7f.1:${p}/`,
  `http://0x7f.0x0.0x0.0x1:${p}/`,
  `http://0177.0.0.1:${p}/`,
  `http://0177.1:${p}/`,
  `http://017700000001:${p}/`,
  `http://127.0.0.1.:${p}/`,
  `http://127.0.0.2:${p}/`,
  `http://127.255.255.254:${p}/`,
  `http://%31%32%37.0.0.1:${p}/`,
  `http://①②⑦.0.0.1:${p}/`,
  `http://127。0。0。1:${p}/`,
  `http://localhost:${p}/`,
  `http://LOCALHOST:${p}/`,
  `http://localhost.:${p}/`,
  `http://LocalHost.:${p}/`,
  `http://ＬＯＣＡＬＨＯＳＴ:${p}/`,
  `http://api.localhost:${p}/`,
  `http://[::1]:${p}/`,
  `http://[0:0:0:0:0:0:0:1]:${p}/`,
  `http://[0000::1]:${p}/`,
  `http://[::ffff:127.0.0.1]:${p}/`,
  `http://[::ffff:7f00:1]:${p}/`,
  `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/`,
  `http://[::127.0.0.1]:${p}/`,
  `http://[::ffff:0:127.0.0.1]:${p}/`,
  `http://[64:ff9b::127.0.0.1]:${p}/`,
  `http://[2002:7f00:1::1]:${p}/`,
  `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${p}/`,
  `http://[::]:${p}/`,
  `http://0.0.0.0:${p}/`,
  `http://0:${p}/`,
  `http://0x0:${p}/`,
  `https://127.0.0.1:${p}/`,
  `https://[::1]:${p}/`,
  `http://user:pass@127.0.0.1:${p}/`,
  `http://127.0.0.1:${p}@127.0.0.1:${p}/`,
  "http://10.0.0.1/",
  "http://10.255.255.255/",
  "http://172.16.0.1/",
  "http://172.31.255.254/",
  "http://192.168.1.1/",
  "http://169.254.169.254/latest/meta-data/",
  "http://0xa9fea9fe/",
  "http://2852039166/",
  "http://169.254.1.1/",
  "http://100.64.0.1/",
  "http://198.18.0.1/",
  "http://224.0.0.1/",
  "http://239.255.255.250/",
  "http://240.0.0.1/",
  "http://255.255.255.255/",
  "http://[fc00::1]/",
  "http://[fd12:3456:789a::1]/",
  "http://[fd00:ec2::254]/",
  "http://[fe80::1]/",
  "http://[ff02::1]/",
  "http://[64:ff9b::10.0.0.1]/",
  "http://[2002:c0a8:101::1]/",
  "http://[::ffff:169.254.169.254]/",
  "http://[::ffff:10.0.0.1]/",
];

describe("SSRF: refused spellings", () => {
  test("at least 60 spellings are each refused with blocked_address and none reaches the server", async () => {
    const { lookup, asked } = fakeLookup({});
    const safeFetch = createSafeFetch({ ...base, lookup });
    const urls = spellings(srv.port);
    expect(urls.length).toBeGreaterThanOrEqual(60);
    for (const url of urls) {
      const err = await refusal(safeFetch(url));
      expect({ url, code: err.code }).toEqual({ url, code: "blocked_address" });
      expect(err.message).toStartWith("refused: ");
    }
    expect(srv.seen).toHaveLength(0);
    // Every name above is a localhost name, refused before any DNS question.
    expect(asked).toEqual([]);
  });

  test("the same loopback spellings do reach the server once the LAN is opened", async () => {
    const safeFetch = createSafeFetch({
      ...base,
      policy: createFetchPolicy({ allowPrivateNetwork: true, allowedHosts: [] }),
    });
    const before = srv.seen.length;
    for (const url of [
      `http://127.1:${srv.port}/a`,
      `http://0x7f000001:${srv.port}/b`,
      `http://0177.0.0.1:${srv.port}/c`,
    ]) {
      const res = await safeFetch(url);
      expect(res.text()).toBe("reached");
    }
    expect(srv.seen.slice(before).map((s) => s.path)).toEqual(["/a", "/b", "/c"]);
  });

  test("the message says why", async () => {
    const safeFetch = createSafeFetch(base);
    expect((await refusal(safeFetch(`http://127.1:${srv.port}/`))).message).toBe(
      "refused: 127.0.0.1 is a loopback address (127.0.0.0/8)",
    );
    expect((await refusal(safeFetch("http://[::ffff:10.0.0.1]/"))).message).toBe(
      "refused: ::ffff:a00:1 is an IPv4-mapped address of 10.0.0.1, a private address",
    );
  });
});

describe("SSRF: hostile DNS answers", () => {
  const answers = {
    "evil.test": ["10.0.0.8"],
    "mixed.test": ["93.184.216.34", "192.168.1.20"],
    "mixed-v6.test": ["2606:4700:4700::1111", "fd00::1"],
    "mapped.test": ["::ffff:127.0.0.1"],
    "loop.test": ["127.0.0.1"],
    "meta.test": ["169.254.169.254"],
    "garbage.test": ["not-an-ip"],
    "empty.test": [],
  };

  test("a name resolving to a private address is refused", async () => {
    const safeFetch = createSafeFetch({ ...base, lookup: fakeLookup(answers).lookup });
    const err = await refusal(safeFetch(`http://evil.test:${srv.port}/`));
    expect(err.code).toBe("blocked_address");
    expect(err.message).toBe("refused: evil.test resolves to 10.0.0.8, a private address (10.0.0.0/8)");
  });

  test.each(["mixed.test", "mixed-v6.test", "mapped.test", "loop.test", "meta.test"])(
    "%s is refused if any answer is blocked",
    async (host) => {
      const safeFetch = createSafeFetch({ ...base, lookup: fakeLookup(answers).lookup });
      expect((await refusal(safeFetch(`http://${host}:${srv.port}/`))).code).toBe("blocked_address");
      expect(srv.seen.filter((s) => s.host?.startsWith(host))).toHaveLength(0);
    },
  );

  test("unresolvable names and odd answers are dns_failure", async () => {
    const safeFetch = createSafeFetch({ ...base, lookup: fakeLookup(answers).lookup });
    for (const host of ["nowhere.test", "empty.test", "garbage.test"]) {
      expect((await refusal(safeFetch(`http://${host}/`))).code).toBe("dns_failure");
    }
  });

  test("cloud metadata stays closed with the LAN open, unless its IP is listed", async () => {
    const open = createSafeFetch({
      ...base,
      policy: createFetchPolicy({ allowPrivateNetwork: true, allowedHosts: ["meta.test"] }),
      lookup: fakeLookup(answers).lookup,
    });
    expect((await refusal(open("http://169.254.169.254/"))).code).toBe("blocked_address");
    expect((await refusal(open("http://[fd00:ec2::254]/"))).code).toBe("blocked_address");
    expect((await refusal(open("http://meta.test/"))).message).toContain("cloud metadata");
  });
});

describe("SSRF: allowedHosts", () => {
  test("an IP entry opens that address only", async () => {
    const safeFetch = createSafeFetch({ ...base, policy: allowing(["127.0.0.1"]) });
    expect((await safeFetch(`http://127.0.0.1:${srv.port}/ip`)).status).toBe(200);
    expect((await safeFetch(`http://2130706433:${srv.port}/ip`)).status).toBe(200);
    expect((await refusal(safeFetch(`http://127.0.0.2:${srv.port}/`))).code).toBe("blocked_address");
    expect((await refusal(safeFetch(`http://localhost:${srv.port}/`))).code).toBe("blocked_address");
  });

  test("a name entry trusts that name whatever it resolves to, and no other name", async () => {
    const { lookup } = fakeLookup({ "nas.lan": ["127.0.0.1"], "other.lan": ["127.0.0.1"] });
    const safeFetch = createSafeFetch({ ...base, policy: allowing(["NAS.lan."]), lookup });
    expect((await safeFetch(`http://nas.lan:${srv.port}/nas`)).status).toBe(200);
    expect((await refusal(safeFetch(`http://other.lan:${srv.port}/`))).code).toBe("blocked_address");
  });

  test("an entry that is not a host is a configuration error", () => {
    expect(() => allowing(["nas.lan:8080"])).toThrow(TypeError);
  });
});

describe("URL checks", () => {
  test.each([
    "file:///etc/passwd",
    "ftp://example.com/",
    "gopher://example.com/",
    "data:text/plain,hi",
    "javascript:alert(1)",
    "ws://example.com/",
  ])("%s is unsupported_protocol", async (url) => {
    expect((await refusal(createSafeFetch(base)(url))).code).toBe("unsupported_protocol");
  });

  test.each([
    "not a url",
    "http://",
    "//example.com/",
    "/relative",
    "http://[::1",
    "http://1.2.3.4.5/",
    "http://exa mple.com/",
  ])("%p is invalid_url", async (url) => {
    expect((await refusal(createSafeFetch(base)(url))).code).toBe("invalid_url");
  });
});

describe("checkFetchableUrl and safeFetch agree", () => {
  // The up-front check (imports) and the fetch apply one policy: what one refuses, the other does too.
  const policies = {
    closed: allowing([]),
    listed: allowing(["127.0.0.1", "nas.localhost"]),
    lan: createFetchPolicy({ allowPrivateNetwork: true, allowedHosts: [] }),
  };
  const urls = [
    "http://127.0.0.1:1/",
    "http://127.0.0.2/",
    "http://[::1]/",
    "http://10.0.0.1/",
    "http://169.254.169.254/",
    "http://localhost/",
    "http://nas.localhost/",
    "ftp://example.com/",
  ];
  test.each(Object.keys(policies))("%s", async (name) => {
    const policy = policies[name as keyof typeof policies];
    // Every name fails to resolve, and an allowed address that swallows the connection times out fast:
    // what matters is only whether the answer is blocked_address.
    const lookup = fakeLookup({}).lookup;
    const safeFetch = createSafeFetch({ ...base, policy, lookup, timeoutMs: 300, connectTimeoutMs: 200 });
    for (const url of urls) {
      const checked = checkFetchableUrl(url, policy);
      const fetched = await safeFetch(url).then(
        () => null,
        (e: FetchError) => e.code,
      );
      if (!checked.ok) expect([url, fetched]).toEqual([url, checked.code]);
      else expect([url, fetched === "blocked_address"]).toEqual([url, false]);
    }
  });
});
