import { describe, expect, it } from "vitest";
import { lastObservedTime } from "./last-observed-time.js";

describe("lastObservedTime", () => {
  it("reads ISO-8601 dates and date-times, a missing offset as UTC", () => {
    expect(
      ["2026-10-05T04:00:00Z", "2026-10-05", "2026-10-05T06:00:00+02:00", "2026-10-05 04:00", "2026-10-05T04:00:00.123Z", "2026-10-05T06:00+0200"].map(lastObservedTime),
    ).toEqual([1791172800000, 1791158400000, 1791172800000, 1791172800000, 1791172800000, 1791172800000]);
  });

  it("is null for text, impossible dates and null", () => {
    expect(["Feature #33", "2026-02-30", "2026-13-01T00:00:00Z", "yesterday", "", null].map(lastObservedTime)).toEqual([null, null, null, null, null, null]);
  });
});
