// The shared media-type parser.
import { expect, test } from "bun:test";
import { isJsonType, mediaType } from "./media-type.ts";

test("mediaType drops parameters, trims and lower-cases; a missing header is empty", () => {
  expect(mediaType("Text/HTML; charset=UTF-8")).toBe("text/html");
  expect(mediaType(" application/json ")).toBe("application/json");
  expect(mediaType(null)).toBe("");
  expect(mediaType(undefined)).toBe("");
  expect(mediaType(";charset=utf-8")).toBe("");
});

test("isJsonType accepts application/json and +json types only", () => {
  expect(isJsonType("application/json")).toBe(true);
  expect(isJsonType("application/problem+json")).toBe(true);
  expect(isJsonType("text/json-ish")).toBe(false);
  expect(isJsonType("application/x-www-form-urlencoded")).toBe(false);
});
