// Table-driven tests of host parsing and the address classification behind safeFetch.
import { describe, expect, test } from "bun:test";
import { checkAddress, classifyAddress } from "./address.ts";
import { formatIPv6, parseHostForCheck, parseIPv6 } from "./ip.ts";

describe("parseHostForCheck", () => {
  const ipv4: [string, string][] = [
    ["127.0.0.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["127.0.1", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["0X7F000001", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0177.1", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
    ["127.0.0.1..", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["0x", "0.0.0.0"],
    ["10.0x10.1", "10.16.0.1"],
    ["0xa9fea9fe", "169.254.169.254"],
    ["2852039166", "169.254.169.254"],
    ["4294967295", "255.255.255.255"],
    [" 8.8.8.8 ", "8.8.8.8"],
  ];
  test.each(ipv4)("%p is IPv4 %p", (raw, address) => {
    expect(parseHostForCheck(raw)).toMatchObject({ kind: "ipv4", address });
  });

  const ipv6: [string, string][] = [
    ["::1", "::1"],
    ["[::1]", "::1"],
    ["[0:0:0:0:0:0:0:1]", "::1"],
    ["[0000::1]", "::1"],
    ["[::ffff:127.0.0.1]", "::ffff:7f00:1"],
    ["::FFFF:7F00:1", "::ffff:7f00:1"],
    ["[::127.0.0.1]", "::7f00:1"],
    ["fe80::1%eth0", "fe80::1"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2606:4700:4700::1111", "2606:4700:4700::1111"],
    ["1:0:0:2:0:0:0:3", "1:0:0:2::3"],
    ["[::]", "::"],
  ];
  test.each(ipv6)("%p is IPv6 %p", (raw, address) => {
    expect(parseHostForCheck(raw)).toMatchObject({ kind: "ipv6", address });
  });

  const names: [string, string][] = [
    ["localhost", "localhost"],
    ["LOCALHOST", "localhost"],
    ["localhost.", "localhost"],
    ["Example.COM.", "example.com"],
    ["xn--nxasmq6b.com", "xn--nxasmq6b.com"],
    ["1.2.3.example", "1.2.3.example"],
  ];
  test.each(names)("%p is the name %p", (raw, name) => {
    expect(parseHostForCheck(raw)).toEqual({ kind: "name", name });
  });

  const invalid = [
    "",
    ".",
    "1.2.3.4.5",
    "256.1.1.1",
    "1.16777216",
    "0x1g.1",
    "09.1.1.1",
    "foo.0x1",
    ":::1",
    "1::2::3",
    "[::1",
    "[1:2:3:4:5:6:7:8:9]",
    "::1.2.3.256",
    "a..b",
    "a b",
    "user@host",
  ];
  test.each(invalid)("%p is invalid", (raw) => {
    expect(parseHostForCheck(raw).kind).toBe("invalid");
  });
});

describe("IPv6 text", () => {
  test("round-trips with RFC 5952 compression", () => {
    expect(formatIPv6(parseIPv6("2001:0db8:0000:0000:0000:ff00:0042:8329")!)).toBe("2001:db8::ff00:42:8329");
    expect(formatIPv6(parseIPv6("2001:db8:0:1:1:1:1:1")!)).toBe("2001:db8:0:1:1:1:1:1");
    expect(parseIPv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6("1:2:3:4:5:6:7:8::")).toBeNull();
  });
});

describe("checkAddress", () => {
  const blocked: [string, string][] = [
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["0.0.0.0", "this network"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["169.254.1.1", "link-local"],
    ["169.254.169.254", "cloud metadata"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["192.0.2.1", "documentation"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "IPv4-mapped address of 127.0.0.1, a loopback"],
    ["::ffff:8.8.8.8", "IPv4-mapped address of 8.8.8.8"],
    ["::127.0.0.1", "IPv4-compatible"],
    ["::ffff:0:10.0.0.1", "IPv4-translated"],
    ["64:ff9b::7f00:1", "NAT64 address of 127.0.0.1"],
    ["64:ff9b::192.168.1.1", "NAT64 address of 192.168.1.1, a private"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["2002:7f00:1::1", "6to4 address of 127.0.0.1"],
    ["2002:c0a8:101::", "6to4 address of 192.168.1.1"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo address embedding client 127.0.0.1"],
    ["2001:0:a00:1::f7f7:f7f7", "Teredo address embedding server 10.0.0.1"],
    ["2001:db8::1", "documentation"],
    ["fc00::1", "unique local"],
    ["fd12:3456::1", "unique local"],
    ["fd00:ec2::254", "cloud metadata"],
    ["fe80::1", "link-local"],
    ["febf::1", "link-local"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["100::1", "discard-only"],
    ["4000::1", "not a global unicast"],
    ["localhost", "not an IP address"],
  ];
  test.each(blocked)("%p is blocked (%s)", (ip, reason) => {
    const result = checkAddress(ip);
    expect(result.blocked).toBe(true);
    expect(result.reason).toContain(reason);
  });

  const allowed = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.15.255.255",
    "172.32.0.0",
    "100.63.255.255",
    "100.128.0.0",
    "198.20.0.0",
    "169.253.255.255",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82a::200e",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
  ];
  test.each(allowed)("%p is public", (ip) => {
    expect(checkAddress(ip)).toEqual({ blocked: false });
  });

  test("metadata addresses, also when embedded, are their own category", () => {
    expect(classifyAddress("169.254.169.254").category).toBe("metadata");
    expect(classifyAddress("::ffff:169.254.169.254").category).toBe("metadata");
    expect(classifyAddress("64:ff9b::a9fe:a9fe").category).toBe("metadata");
    expect(classifyAddress("169.254.169.253").category).toBe("private");
  });
});
