import { describe, expect, test } from "bun:test";
import { parsePdfDate, toRfc3339 } from "./dates.ts";

describe("date normalisation", () => {
  test("ISO 8601 with offsets, bare dates and space-separated times become UTC RFC 3339", () => {
    expect(toRfc3339("2024-03-05T09:30:00+01:00")).toBe("2024-03-05T08:30:00.000Z");
    expect(toRfc3339("2024-03-05")).toBe("2024-03-05T00:00:00.000Z");
    expect(toRfc3339("2021-07-04 16:20:00Z")).toBe("2021-07-04T16:20:00.000Z");
    expect(toRfc3339("Tue, 05 Mar 2024 09:30:00 GMT")).toBe("2024-03-05T09:30:00.000Z");
  });

  test("garbage, numbers without a year and absurd years are null", () => {
    expect(toRfc3339("yesterday")).toBeNull();
    expect(toRfc3339("")).toBeNull();
    expect(toRfc3339(null)).toBeNull();
    expect(toRfc3339(42)).toBeNull();
    expect(toRfc3339("0000-01-01")).toBeNull();
  });

  test("PDF dates with and without offsets", () => {
    expect(parsePdfDate("D:20240305120000+01'00'")).toBe("2024-03-05T11:00:00.000Z");
    expect(parsePdfDate("D:20240115093000Z")).toBe("2024-01-15T09:30:00.000Z");
    expect(parsePdfDate("D:2023")).toBe("2023-01-01T00:00:00.000Z");
    expect(parsePdfDate("D:20230704-05'30")).toBe("2023-07-04T05:30:00.000Z");
    expect(parsePdfDate("not a date")).toBeNull();
  });
});
