// The shared bearer parser: token, missing header, other shapes.
import { expect, test } from "bun:test";
import { bearerToken } from "./bearer.ts";

const req = (authorization?: string) =>
  new Request("http://x/", { headers: authorization === undefined ? {} : { authorization } });

test("reads the token of a Bearer header, case-insensitively and with surrounding spaces", () => {
  expect(bearerToken(req("Bearer cpk_abc"))).toEqual({ token: "cpk_abc" });
  expect(bearerToken(req("bearer   cpat_x  "))).toEqual({ token: "cpat_x" });
  expect(bearerToken(req("Bearer missing"))).toEqual({ token: "missing" });
});

test("says whether the header is missing or has another shape", () => {
  expect(bearerToken(req())).toEqual({ problem: "missing" });
  expect(bearerToken(req("Basic dXNlcjpwYXNz"))).toEqual({ problem: "malformed" });
  expect(bearerToken(req("Bearer"))).toEqual({ problem: "malformed" });
  expect(bearerToken(req("Bearer two tokens"))).toEqual({ problem: "malformed" });
});
